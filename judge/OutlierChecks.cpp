// node-outlier over the figures (results/FleetOutliers.hpp): the GPUs and nodes that lie out from the
// job's centre, by the straggler threshold and kOutlierSigmas. Not judged where ranks share GPUs on
// purpose (they measure each other's load).
#include "judge/Rule.hpp"

namespace gpuscale::judge {

extern const RuleFamily kOutlierChecks{
    "outliers", "figures", "the figures of every phase, ranks[]", "node-outlier warning", GpuBlock::none,
    [](const RunReport& report, const RuleContext& context) {
      Judged judged;
      if (!(report.emulation && report.emulation->shared_gpu) && context.figures)
        judged.outliers = results::find_outliers(*context.figures, report.ranks, context.straggler_threshold);
      judged.checks = results::outlier_checks(judged.outliers, context.straggler_threshold);
      return judged;
    }};

}  // namespace gpuscale::judge
