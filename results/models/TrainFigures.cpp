#include "results/models/TrainFigures.hpp"

#include <string>
#include <utility>

#include "results/models/FigureNames.hpp"

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

void append_figures(const TrainResults& results, std::vector<Figure>& out) {
  for (const auto& r : results.records) {
    if (!r.skipped_reason.empty()) continue;
    const Labels l = configuration(r);
    const auto first = out.size();
    const auto add = [&](const char* metric, const Labels& labels, double value, const char* unit, Better better) {
      out.push_back(Figure{names::kTrain, metric, labels, value, unit, better});
    };
    const auto add_optional = [&](const char* metric, const std::optional<double>& value, const char* unit,
                                  Better better) {
      if (value) add(metric, l, *value, unit, better);
    };
    add(names::kStepTime, l, r.step_s.median, "s", Better::lower);
    add(names::kSamplesPerS, l, r.samples_per_s, "samples/s", Better::higher);
    add_optional(names::kScalingEfficiency, r.efficiency, "ratio", Better::higher);
    add_optional(names::kComputeTime, r.compute_s, "s", Better::lower);
    add_optional(names::kCommTime, r.comm_s, "s", Better::lower);
    add_optional(names::kExposedCommTime, r.exposed_comm_s, "s", Better::lower);
    add_optional(names::kOverlap, r.overlap_pct, "%", Better::higher);
    if (r.peak_memory_bytes > 0)
      add(names::kPeakMemory, l, static_cast<double>(r.peak_memory_bytes), "B", Better::lower);
    for (const auto& k : r.ranks)
      add(names::kRankStepTime, with(l, names::kRank, std::to_string(k.rank)), k.step_s.median, "s", Better::lower);
    if (r.dp)
      for (const auto& [phase, field] : kDpPhaseFields)
        add(names::kDpPhaseTime, with(l, names::kDpPhase, phase), (*r.dp).*field, "s", Better::lower);
    mark_beside_tenant(out, first, r.beside_tenant);
  }
}

}  // namespace gpuscale::results
