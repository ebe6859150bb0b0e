#pragma once
// Fleet outliers: every per-GPU figure (label rank) and per-node figure (label node) that says how fast a
// GPU or node is and lies out from the job's robust centre for the same figure and GPU model
// (results/models/FigureDeviations.hpp) by more than the straggler threshold and kOutlierSigmas.
#include <vector>

#include "results/base/Figure.hpp"
#include "results/base/Outlier.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// The outliers among `figures` worse than the median of their figure and model by more than
// `threshold` (the straggler threshold) and by more than kOutlierSigmas, furthest out first. GPUs
// whose speed is not judged (the cpu backend's) are never outliers.
std::vector<results::Outlier> find_outliers(const std::vector<results::Figure>& figures,
                                            const std::vector<results::RankEnv>& ranks, double threshold);

}  // namespace gpuscale::judge
