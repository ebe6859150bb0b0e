#include "results/NodeTables.hpp"

#include <cmath>
#include <map>

#include "results/Format.hpp"
#include "results/Table.hpp"

namespace gpuscale::results {
namespace {

std::string percent_worse(double worse) { return (worse > 0 ? "+" : "") + fixed(worse * 100, 0) + "%"; }

std::string sigmas_cell(double sigmas) { return std::isfinite(sigmas) ? fixed(sigmas, 1) : "inf"; }

}  // namespace

void write_outlier_table(const std::vector<Outlier>& outliers, double threshold, std::ostream& out) {
  if (outliers.empty()) return;
  Table t({"node", "host", "gpu", "model", "figure", "value", "median", "worse", "sigmas", "figures out"});
  std::map<int, int> count;  // node -> its outlying figures
  for (const auto& o : outliers) ++count[o.node];
  for (const auto& o : worst_per_node(outliers))
    t.add_row({std::to_string(o.node), o.host, o.gpu.empty() ? "(node)" : o.gpu, o.model, o.figure,
               si_compact(o.value) + " " + o.unit, si_compact(o.median), percent_worse(o.worse), sigmas_cell(o.sigmas),
               std::to_string(count[o.node])});
  out << section_header("Fleet: outliers (per node, its worst figure; furthest out first)",
                        "against the median of the job's GPUs (or nodes) of the same model; out = worse by more than " +
                            fixed(threshold * 100, 0) + "% and " + fixed(kOutlierSigmas, 1) +
                            " robust sigmas (MAD x 1.4826); every figure out is in the JSON's outliers[]");
  t.write(out);
}

}  // namespace gpuscale::results
