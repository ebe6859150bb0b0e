#include "phases/compute/ComputeFigures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/SpeedJudged.hpp"
#include "results/base/StragglerSpread.hpp"

namespace gpuscale::results {
namespace {

// The measurement without the rank: what several GPUs ran alike.
Labels measurement(const ComputeRecord& r) {
  return {{names::kLayer, r.name.empty() ? r.layer + " " + r.shape : r.name},
          {names::kPrecision, r.precision},
          {"pass", r.pass},
          {"set", r.set}};
}

}  // namespace

void append_figures(const std::vector<ComputeRecord>& records, const RecordMarks& marks, std::vector<Figure>& out) {
  std::map<Labels, std::vector<double>> times;  // measurement -> each judged rank's median
  std::map<Labels, double> widest;              // measurement -> the widest relative band of those ranks
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    if (!r.skipped_reason.empty()) continue;
    Labels labels = measurement(r);
    const bool beside_tenant = marks.has(ComputeMark::beside_tenant, i);
    if (std::isfinite(r.time_s.median) && speed_judged(r.gpu) && !beside_tenant) {
      times[labels].push_back(r.time_s.median);
      widest[labels] = std::max(widest[labels], band_of(r.time_s, 1));
    }
    labels[names::kRank] = std::to_string(r.rank);
    const auto first = out.size();
    for (auto f : {Figure{phase::compute, names::kTflops, labels, r.tflops, "TFLOP/s", Better::higher},
                   Figure{phase::compute, names::kTime, labels, r.time_s.median, "s", Better::lower}}) {
      f.spread = band_of(r.time_s, f.value);
      f.op_time_s = r.time_s.median;
      out.push_back(std::move(f));
    }
    if (r.verification.ran) {
      out.push_back(Figure{phase::compute, names::kRelativeError, labels, r.verification.relative_error, "ratio", Better::lower});
      out.push_back(Figure{phase::compute, names::kWrongElements, labels, r.verification.passed ? 0.0 : 1.0, "count",
                           Better::lower});
    }
    mark_beside_tenant(out, first, beside_tenant);
  }
  // The spread is a ratio of the ranks' times: its noise is as wide as the widest rank's band.
  for (const auto& [labels, medians] : times)
    if (const auto spread = straggler_spread(medians)) {
      Figure f{phase::compute, names::kStragglerSpread, labels, *spread, "ratio", Better::lower};
      f.spread = widest[labels];
      out.push_back(std::move(f));
    }
}

}  // namespace gpuscale::results
