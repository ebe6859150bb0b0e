#include "judge/FleetOutliers.hpp"

#include <algorithm>

#include "results/base/SpeedJudged.hpp"
#include "results/models/FigureDeviations.hpp"

namespace gpuscale::judge {

std::vector<results::Outlier> find_outliers(const std::vector<results::Figure>& figures,
                                            const std::vector<results::RankEnv>& ranks, double threshold) {
  using results::Outlier;
  auto out = results::figure_deviations(figures, ranks);
  std::erase_if(out, [threshold](const Outlier& o) {
    return !results::speed_judged(o.model) || !(o.worse > threshold) || !(o.sigmas > results::kOutlierSigmas);
  });
  std::stable_sort(out.begin(), out.end(), [](const Outlier& a, const Outlier& b) { return a.worse > b.worse; });
  return out;
}

}  // namespace gpuscale::judge
