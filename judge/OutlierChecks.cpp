// node-outlier over the figures (judge/FleetOutliers.hpp): the GPUs and nodes that lie out from the
// job's centre, by the straggler threshold and kOutlierSigmas. Not judged where ranks share GPUs on
// purpose (they measure each other's load).
#include "judge/OutlierChecks.hpp"

#include <algorithm>
#include <cmath>

#include "judge/FleetOutliers.hpp"
#include "judge/Rule.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"
#include "results/base/ReadableNumber.hpp"

namespace gpuscale::judge {

using namespace results;

std::vector<Check> outlier_checks(const std::vector<Outlier>& outliers, double threshold) {
  std::vector<Check> out;
  for (const auto& worst : worst_per_node(outliers)) {
    Check c{check_ids::kNodeOutlier, Severity::warning, {}, ""};
    int figures = 0;
    for (const auto& o : outliers) {
      if (o.node != worst.node) continue;
      ++figures;
      if (o.rank >= 0) c.ranks.push_back(o.rank);
    }
    std::sort(c.ranks.begin(), c.ranks.end());
    c.ranks.erase(std::unique(c.ranks.begin(), c.ranks.end()), c.ranks.end());
    c.nodes = {worst.node};
    c.message = "node " + std::to_string(worst.node) + " (" + worst.host + ")" +
                (worst.gpu.empty() ? "" : ", GPU " + worst.gpu) + ": " + worst.figure + " = " +
                readable_with_unit(worst.value, worst.unit) + ", " + fixed(worst.worse * 100, 0) +
                "% worse than the median " + readable_with_unit(worst.median, worst.unit) + " of the job's " + worst.model + " (over " +
                percent(threshold, 0) + ", " +
                (std::isfinite(worst.sigmas) ? fixed(worst.sigmas, 1) + " robust sigmas" : "the others all equal") +
                ")" + (figures > 1 ? " and " + plural(figures - 1, "more figure") + " out" : "") +
                "; drain the node and test it alone (gpuscale burn, gpuscale links, collectives --isolate)";
    out.push_back(std::move(c));
  }
  return out;
}


extern const RuleFamily kOutlierChecks{
    "outliers", "figures", "the figures of every phase, ranks[]", "node-outlier warning", GpuBlock::none,
    [](const RunReport& report, const RuleContext& context) {
      Judged judged;
      if (!(report.emulation && report.emulation->shared_gpu) && context.figures)
        judged.outliers = find_outliers(*context.figures, report.ranks, context.straggler_threshold);
      judged.checks = outlier_checks(judged.outliers, context.straggler_threshold);
      return judged;
    },
    nullptr};

}  // namespace gpuscale::judge
