#pragma once
// The console's per-node tables: the fleet outliers, one line per node that lies out.
#include <ostream>
#include <vector>

#include "results/FleetOutliers.hpp"
#include "results/RunReport.hpp"

namespace gpuscale::results {

// Each node's furthest outlier, furthest first: host, GPU, figure, value against the median. Nothing
// when no figure lies out.
void write_outlier_table(const std::vector<Outlier>& outliers, double threshold, std::ostream& out);

}  // namespace gpuscale::results
