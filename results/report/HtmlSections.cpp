#include "results/report/HtmlSections.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "phases/collectives/CollectivesReporter.hpp"
#include "phases/collectives/RoundRatios.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/Markup.hpp"
#include "results/base/ReadableNumber.hpp"
#include "results/base/Statistics.hpp"
#include "results/base/Table.hpp"
#include "results/charts/PhaseCharts.hpp"
#include "results/charts/SvgCanvas.hpp"
#include "results/report/PhaseSections.hpp"

namespace gpuscale::results {
namespace {

using markup::escape;

std::string signed_percent(double fraction) {
  const double shown = std::fabs(fraction) < 0.0005 ? 0 : fraction * 100;  // no "-0.0%"
  return (shown >= 0 ? "+" : "") + fixed(shown, 1) + "%";
}

// How far `value` lies from `reference` on the worse side, as a fraction (0 when on the better side).
double worse_by(double value, double reference, Better better) {
  return better == Better::none ? 0 : std::max(0.0, signed_worse(value, reference, better));
}

// The page's sign convention, the console's: + worse, - better.
constexpr const char* kSignLegend = "+: worse, -: better";

// Worse by 0: no colour; by kHeatFullScale or more: full red.
std::string heat_style(double worse) {
  const double share = std::min(1.0, worse / kHeatFullScale);
  return "background:hsl(0,75%," + fixed(100 - 45 * share, 0) + "%)";
}

// How the isolation found a suspect, in words: "rounds, bisection".
std::string named_by(const Suspect& s) {
  std::vector<std::string> ways;
  if (s.rounds_counted > 0 && s.rounds_failed > 0) ways.push_back("rounds of pairs");
  if (s.by_node_local) ways.push_back("node-local allreduce");
  if (s.by_bisection) ways.push_back("bisection");
  return ways.empty() ? "-" : join_words(ways);
}

// Every node's own figures, folded: its node-local allreduce and its rounds against the round's median.
void write_every_node(const IsolationRecord& r, std::ostream& out) {
  struct Node {
    double local_gbps = std::nan("");
    int failed = 0, played = 0;
    std::vector<double> ratios;
  };
  std::map<int, Node> nodes;
  for (const auto& l : r.node_local) nodes[l.node].local_gbps = l.busbw_gbps;
  const auto ratios = round_ratios(r);
  for (std::size_t i = 0; i < r.matches.size() && i < ratios.size(); ++i) {
    if (r.matches[i].partner < 0) continue;
    auto& n = nodes[r.matches[i].node];
    ++n.played;
    n.failed += ratios[i] < r.threshold ? 1 : 0;
    n.ratios.push_back(ratios[i]);
  }
  if (nodes.empty()) return;
  Table t({"node", "host", "node-local allreduce busbw (GB/s)", "rounds under the threshold",
           "median of its rounds against the round's median"});
  for (const auto& [node, n] : nodes)
    t.add_row({std::to_string(node),
               node < static_cast<int>(r.node_hosts.size()) ? r.node_hosts[static_cast<std::size_t>(node)] : "-",
               std::isnan(n.local_gbps) ? "-" : readable(n.local_gbps, "GB/s"),
               std::to_string(n.failed) + " of " + std::to_string(n.played),
               n.ratios.empty() ? "-" : fixed(median(n.ratios), 2)});
  out << "<details id=\"isolation-nodes\"><summary>Every node's figures (" << nodes.size() << " nodes; threshold "
      << fixed(r.threshold, 2) << " of the round's median)</summary>\n";
  t.write_html(out, "isolation-nodes");
  out << "</details>\n";
}

// What the summary says of figures measured beside another process on the GPU.
std::string beside_tenant_note(const Headline& h) {
  if (h.beside_tenant)
    return std::string(kBesideTenantMark) + " measured while another process computed on the GPU (gpu-in-use): "
           "not the GPU's own figure";
  if (h.beside_tenant_ranks.empty()) return "";
  return std::string(kBesideTenantMark) + " " + std::to_string(h.beside_tenant_ranks.size()) + " of " +
         std::to_string(h.per_rank.size()) + " GPUs measured while another process computed on them (ranks " +
         join_ints({h.beside_tenant_ranks.begin(), h.beside_tenant_ranks.end()}) + "): left out of the median";
}

}  // namespace

void write_summary(const std::vector<Headline>& headlines, std::ostream& out) {
  if (headlines.empty()) return;
  Table t({"figure", "value", "unit", "GPUs", "floor", "peak", "% of peak", "peak from", "baseline",
           "against baseline", "note"});
  for (const auto& h : headlines) {
    const bool measured_peak = h.peak && *h.peak > 0;
    const auto shown = [&h](const std::optional<double>& v) { return v ? readable(*v, h.unit) : std::string("-"); };
    // A bus bandwidth over one rank is a local copy's: not measured, like the phase tables say.
    if (h.local_copy) {
      t.add_row({h.title, "-", readable_unit(h.unit), "job", "-", shown(h.peak), "-",
                 h.peak_source.empty() ? "-" : h.peak_source, "-", "-", "one rank: a local copy, no bus measured"});
      continue;
    }
    const auto unit = readable_unit(h.unit);
    std::string note = h.note;
    if (const auto shared = beside_tenant_note(h); !shared.empty()) note += (note.empty() ? "" : "; ") + shared;
    t.add_row({h.title, readable(h.value, h.unit) + (h.beside_tenant ? std::string(" ") + kBesideTenantMark : ""),
               unit.empty() ? "-" : unit,
               h.per_rank.empty() ? "job" : std::to_string(h.per_rank.size()), shown(h.floor), shown(h.peak),
               measured_peak ? readable(h.value / *h.peak, "ratio") : "-", h.peak_source.empty() ? "-" : h.peak_source,
               shown(h.baseline),
               h.baseline && *h.baseline != 0 ? signed_percent(signed_worse(h.value, *h.baseline, h.better)) : "-",
               note.empty() ? "-" : note});
  }
  out << "<section id=\"summary\"><h2>Summary: headline figures</h2>"
      << "<p class=\"meta\">Per-GPU figures are the median over GPUs; peaks are the data sheet's or the link's; "
         "floors are the GPU model's (a GPU under its floor fails); against baseline: "
      << kSignLegend << ".</p>\n";
  t.write_html(out, "summary");
  out << "</section>\n";
}

void write_suspects(const IsolationRecord& r, const SuspectList& suspects, std::ostream& out) {
  out << "<section id=\"suspects\"><h2>Slow-node isolation: suspects</h2><p class=\"meta\">" << r.node_hosts.size()
      << " nodes, " << r.rounds << " rounds of random node pairs at " << escape(size_label(r.bytes)) << ", "
      << r.bisection.size() << " bisection steps" << (r.bisection_note.empty() ? "" : ": " + escape(r.bisection_note))
      << "</p>\n";
  if (suspects.ranked.empty()) {
    out << "<p id=\"no-suspect\">No node named: every node passed most of its rounds.</p>\n";
  } else {
    Table t({"rank", "node", "host", "rounds failed", "score", "named by", "evidence"});
    int place = 0;
    for (const auto& s : suspects.ranked) {
      // A node named by bisection or its node-local allreduce alone played no counted round: its
      // rounds and score say nothing, and "named by" says how it was found.
      const bool by_rounds = s.rounds_counted > 0 && s.rounds_failed > 0;
      t.add_row({std::to_string(++place), std::to_string(s.node), s.host.empty() ? "-" : s.host,
                 s.rounds_counted > 0 ? std::to_string(s.rounds_failed) + " of " + std::to_string(s.rounds_counted) : "-",
                 by_rounds ? fixed(s.score, 2) : "-", named_by(s), s.evidence});
    }
    t.write_html(out, "suspects");
  }
  write_every_node(r, out);
  out << "</section>\n";
}

namespace {

// One column of the node heat map: a value per node, judged against the median over nodes.
struct HeatColumn {
  std::string title, unit;
  Better better = Better::none;
  std::map<int, double> nodes;  // node -> its value (its worst GPU's for a per-GPU figure)
};

// Each per-GPU headline as its nodes' worst GPUs; hosts filled in from the ranks.
std::vector<HeatColumn> gpu_columns(const RunReport& run, const std::vector<Headline>& headlines,
                                    std::map<int, std::string>& hosts) {
  std::vector<HeatColumn> out;
  for (const auto& h : headlines) {
    if (h.per_rank.empty()) continue;
    HeatColumn c{h.title, h.unit, h.better, {}};
    for (const auto& [rank, value] : h.per_rank) {
      // A GPU measured beside another process is not compared with the others.
      if (rank < 0 || rank >= static_cast<int>(run.ranks.size()) || h.beside_tenant_ranks.count(rank)) continue;
      const auto& e = run.ranks[static_cast<std::size_t>(rank)];
      hosts[e.node] = e.host;
      const auto [it, fresh] = c.nodes.try_emplace(e.node, value);
      if (!fresh && worse_by(value, it->second, h.better) > 0) it->second = value;
    }
    out.push_back(std::move(c));
  }
  return out;
}

// The node's own links to the other nodes (the slow-node rounds' inter-node busbw): a slow network
// shows here when every GPU computes at speed.
std::optional<HeatColumn> network_column(const std::vector<Figure>& figures) {
  HeatColumn c{"inter-node busbw", "GB/s", Better::higher, {}};
  for (const auto& f : figures) {
    if (f.metric != names::kInterNodeBusBw) continue;
    c.unit = f.unit;
    c.nodes[std::stoi(label_or_empty(f, names::kNode))] = f.value;
  }
  if (c.nodes.empty()) return std::nullopt;
  return c;
}

}  // namespace

void write_node_heat_map(const RunReport& run, const std::vector<Headline>& headlines,
                         const std::vector<Figure>& figures, std::ostream& out) {
  if (run.node_count < 2) return;
  std::map<int, std::string> hosts;
  auto columns = gpu_columns(run, headlines, hosts);
  if (auto network = network_column(figures)) columns.push_back(std::move(*network));
  if (columns.empty()) return;
  std::set<int> nodes;
  std::vector<double> medians;
  for (const auto& c : columns) {
    std::vector<double> values;
    for (const auto& [node, value] : c.nodes) nodes.insert(node), values.push_back(value);
    medians.push_back(median(values));
  }
  for (const auto& e : run.ranks) hosts.emplace(e.node, e.host);
  out << "<section id=\"node-heat\"><h2>Nodes against the median node</h2><p class=\"meta\">Each cell: the node's "
         "worst GPU (or, for the inter-node busbw, the median of its slow-node rounds) and how far it lies from the "
         "median over nodes ("
      << kSignLegend << "); redder is further on the worse side (full red at " << fixed(kHeatFullScale * 100, 0)
      << "%).</p>\n<table class=\"heat\"><tr><th>node</th><th>host</th>";
  for (const auto& c : columns) {
    const auto unit = readable_unit(c.unit);
    out << "<th>" << escape(c.title) << (unit.empty() ? "" : " (" + escape(unit) + ")") << "</th>";
  }
  out << "</tr>\n";
  for (int node : nodes) {
    out << "<tr><td>" << node << "</td><td>" << escape(hosts.count(node) ? hosts[node] : "-") << "</td>";
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = columns[c].nodes.find(node);
      if (it == columns[c].nodes.end()) {
        out << "<td>-</td>";
        continue;
      }
      const double worse = worse_by(it->second, medians[c], columns[c].better);
      out << "<td style=\"" << heat_style(worse) << "\" data-worse=\"" << fixed(worse, 3) << "\">"
          << escape(readable(it->second, columns[c].unit)) << " ("
          << (medians[c] > 0 ? signed_percent(signed_worse(it->second, medians[c], columns[c].better)) : "-")
          << ")</td>";
    }
    out << "</tr>\n";
  }
  out << "</table></section>\n";
}

}  // namespace gpuscale::results
