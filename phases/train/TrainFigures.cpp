#include "phases/train/TrainFigures.hpp"

#include <string>
#include <utility>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"

namespace gpuscale::results {
namespace {

Labels configuration(const TrainRecord& r) {
  Labels l{{names::kStrategy, r.strategy},
           {names::kModel, r.model},
           {names::kPrecision, r.precision},
           {names::kScaling, r.scaling},
           {names::kGpus, std::to_string(r.gpus)}};
  const std::string options = train_options_text(r);
  if (!options.empty()) l[names::kOptions] = options;
  return l;
}

Labels with(Labels l, const char* key, std::string value) {
  l[key] = std::move(value);
  return l;
}

}  // namespace

void append_figures(const TrainResults& results, const RecordMarks& marks, std::vector<Figure>& out) {
  for (std::size_t i = 0; i < results.records.size(); ++i) {
    const auto& r = results.records[i];
    if (!r.skipped_reason.empty()) continue;
    const Labels l = configuration(r);
    const auto first = out.size();
    // The steps' band is the noise of every figure timed from them (FigureNoise.hpp); a difference of
    // two times (exposed communication, and the overlap made from it) keeps the band's absolute width.
    const double step_band = band_of(r.step_s, r.step_s.median);
    const auto add = [&](const char* metric, const Labels& labels, double value, const char* unit, Better better,
                         double spread = 0) {
      Figure f{phase::train, metric, labels, value, unit, better};
      f.spread = spread;
      f.op_time_s = r.step_s.median;
      out.push_back(std::move(f));
    };
    const auto add_optional = [&](const char* metric, const std::optional<double>& value, const char* unit,
                                  Better better, double spread) {
      if (value) add(metric, l, *value, unit, better, spread);
    };
    const auto relative = [&](const std::optional<double>& value) { return value ? band_of(r.step_s, *value) : 0.0; };
    add(names::kStepTime, l, r.step_s.median, "s", Better::lower, step_band);
    add(names::kSamplesPerS, l, r.samples_per_s, "samples/s", Better::higher, band_of(r.step_s, r.samples_per_s));
    add_optional(names::kScalingEfficiency, r.efficiency, "ratio", Better::higher, relative(r.efficiency));
    add_optional(names::kComputeTime, r.compute_s, "s", Better::lower, relative(r.compute_s));
    add_optional(names::kCommTime, r.comm_s, "s", Better::lower, relative(r.comm_s));
    add_optional(names::kExposedCommTime, r.exposed_comm_s, "s", Better::lower, step_band);
    add_optional(names::kOverlap, r.overlap_pct, "%", Better::higher,
                 r.comm_s && *r.comm_s > 0 ? 100 * step_band / *r.comm_s : 0.0);
    if (r.peak_memory_bytes > 0)
      add(names::kPeakMemory, l, static_cast<double>(r.peak_memory_bytes), "B", Better::lower);
    for (const auto& k : r.ranks)
      add(names::kRankStepTime, with(l, names::kRank, std::to_string(k.rank)), k.step_s.median, "s", Better::lower,
          band_of(k.step_s, k.step_s.median));
    if (r.dp)
      for (const auto& [phase, field] : kDpPhaseFields)  // each phase timed on its own: its own time
        out.push_back(Figure{phase::train, names::kDpPhaseTime, with(l, names::kDpPhase, phase), (*r.dp).*field, "s",
                             Better::lower});
    mark_beside_tenant(out, first, marks.has(TrainMark::beside_tenant, i));
  }
}

}  // namespace gpuscale::results
