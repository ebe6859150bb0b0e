#pragma once
// node-outlier over the fleet outliers of the figures (judge/FleetOutliers.hpp).
#include <vector>

#include "results/base/Check.hpp"
#include "results/base/Outlier.hpp"

namespace gpuscale::judge {

// One `node-outlier` warning per node with outliers (its worst figure named), furthest out first.
std::vector<results::Check> outlier_checks(const std::vector<results::Outlier>& outliers, double threshold);

}  // namespace gpuscale::judge
