#include "results/report/NodeTables.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "results/base/Format.hpp"
#include "results/base/ReadableNumber.hpp"
#include "results/base/Table.hpp"
#include "results/models/FigureDeviations.hpp"
#include "results/report/RunFigures.hpp"
#include "results/world/CpuList.hpp"

namespace gpuscale::results {
namespace {

std::string percent_worse(double worse) { return (worse > 0 ? "+" : "") + fixed(worse * 100, 0) + "%"; }

std::string sigmas_cell(double sigmas) { return std::isfinite(sigmas) ? fixed(sigmas, 1) : "inf"; }

}  // namespace

bool shows_nodes(const RunReport& r) { return r.node_count > kNodeViewAbove; }

void write_outlier_table(const std::vector<Outlier>& outliers, double threshold, std::ostream& out) {
  if (outliers.empty()) return;
  Table t({"node", "host", "gpu", "model", "figure", "value", "median", "worse", "sigmas", "figures out"});
  std::map<int, int> count;  // node -> its outlying figures
  for (const auto& o : outliers) ++count[o.node];
  const auto worst = worst_per_node(outliers);
  const auto shown = std::min(worst.size(), kOutlierRows);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& o = worst[i];
    t.add_row({std::to_string(o.node), o.host, o.gpu.empty() ? "(node)" : o.gpu, o.model, o.figure,
               readable_with_unit(o.value, o.unit), readable_with_unit(o.median, o.unit), percent_worse(o.worse), sigmas_cell(o.sigmas),
               std::to_string(count[o.node])});
  }
  out << section_header("Fleet: outliers (per node, its worst figure; furthest out first)",
                        "against the median of the job's GPUs (or nodes) of the same model; out = worse by more than " +
                            percent(threshold, 0) + " and " + fixed(kOutlierSigmas, 1) +
                            " robust sigmas (MAD x 1.4826); every figure out is in the JSON's outliers[]");
  t.write(out);
  if (worst.size() > shown)
    out << "  and " << worst.size() - shown << " more nodes out, each with its figures in the JSON's outliers[]\n";
}

NodeSummary node_summary(const RunReport& r) {
  const auto deviations = figure_deviations(flatten(r), r.ranks);
  std::set<std::string> phases;
  std::map<std::pair<int, std::string>, const Outlier*> worst;  // (node, phase) -> its worst figure
  for (const auto& d : deviations) {
    phases.insert(d.phase);
    auto& w = worst[{d.node, d.phase}];
    if (!w || d.worse > w->worse) w = &d;
  }
  std::map<int, std::vector<int>> ranks_of;  // node -> its ranks
  std::map<int, std::string> host_of;
  for (const auto& e : r.ranks) {
    ranks_of[e.node].push_back(e.rank);
    host_of.emplace(e.node, e.host);
  }
  NodeSummary s;
  s.header = {"node", "host", "ranks"};
  for (const auto& p : phases) s.header.push_back(p + ": worst");
  for (const auto& [node, ranks] : ranks_of) {
    std::vector<std::string> row = {std::to_string(node), host_of[node], format_cpulist(ranks)};
    for (const auto& p : phases) {
      const auto it = worst.find({node, p});
      if (it == worst.end()) {
        row.push_back("-");
        continue;
      }
      const Outlier& w = *it->second;
      row.push_back((w.gpu.empty() ? "node" : w.gpu) + " " + percent_worse(w.worse) + " " + w.figure.substr(p.size() + 1));
    }
    s.rows.push_back(std::move(row));
  }
  return s;
}

void write_node_table(const RunReport& r, std::ostream& out) {
  auto s = node_summary(r);
  Table t(s.header);
  for (auto& row : s.rows) t.add_row(std::move(row));
  out << section_header("Nodes (" + std::to_string(r.node_count) + "; one line each: every rank is in the JSON and CSV)",
                        "per phase: the node's worst GPU, how much worse than the job's median (+: worse) on which "
                        "figure");
  t.write(out);
}

}  // namespace gpuscale::results
