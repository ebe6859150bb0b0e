#pragma once
// The console's per-node tables: the fleet outliers, one line per node that lies out, and, past a few
// nodes, the node summary that stands in for every per-rank table (the JSON and CSV keep every rank).
#include <ostream>
#include <string>
#include <vector>

#include "results/base/Outlier.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// More nodes than this and the console shows nodes, not ranks.
inline constexpr int kNodeViewAbove = 4;
bool shows_nodes(const RunReport& r);

// Each node's furthest outlier, furthest first: host, GPU, figure, value against the median, for the
// kOutlierRows nodes furthest out, then a line counting the rest. Nothing when no figure lies out.
inline constexpr std::size_t kOutlierRows = 20;
void write_outlier_table(const std::vector<Outlier>& outliers, double threshold, std::ostream& out);

// One line per node: its host and ranks, and for each phase with per-GPU or per-node figures its
// worst GPU and how much worse than the job's median that figure is. The cells, for the console and
// the HTML alike.
struct NodeSummary {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // one per node, in node order
};
NodeSummary node_summary(const RunReport& r);
void write_node_table(const RunReport& r, std::ostream& out);

}  // namespace gpuscale::results
