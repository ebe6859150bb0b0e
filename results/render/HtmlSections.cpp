#include "results/render/HtmlSections.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "results/models/Statistics.hpp"
#include "results/models/SuspectRanking.hpp"
#include "results/render/CollectivesReporter.hpp"
#include "results/render/Format.hpp"
#include "results/render/PhaseSections.hpp"
#include "results/render/ReadableNumber.hpp"
#include "results/render/SvgCanvas.hpp"
#include "results/render/Table.hpp"

namespace gpuscale::results {
namespace {

using svg::escape;

std::string signed_percent(double fraction) { return (fraction >= 0 ? "+" : "") + fixed(fraction * 100, 1) + "%"; }

// How far `value` lies from `reference` on the worse side, as a fraction (0 when on the better side).
double worse_by(double value, double reference, Better better) {
  if (!(reference > 0)) return 0;
  const double change = value / reference - 1;
  if (better == Better::higher) return std::max(0.0, -change);
  if (better == Better::lower) return std::max(0.0, change);
  return 0;
}

// Worse by 0: no colour; by kHeatFullScale or more: full red.
std::string heat_style(double worse) {
  const double share = std::min(1.0, worse / kHeatFullScale);
  return "background:hsl(0,75%," + fixed(100 - 45 * share, 0) + "%)";
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
               std::isnan(n.local_gbps) ? "-" : si_compact(n.local_gbps),
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
    const auto unit = readable_unit(h.unit);
    std::string note = h.note;
    if (const auto shared = beside_tenant_note(h); !shared.empty()) note += (note.empty() ? "" : "; ") + shared;
    t.add_row({h.title, readable(h.value, h.unit) + (h.beside_tenant ? std::string(" ") + kBesideTenantMark : ""),
               unit.empty() ? "-" : unit,
               h.per_rank.empty() ? "job" : std::to_string(h.per_rank.size()), shown(h.floor), shown(h.peak),
               measured_peak ? readable(h.value / *h.peak, "ratio") : "-", h.peak_source.empty() ? "-" : h.peak_source,
               shown(h.baseline), h.baseline && *h.baseline != 0 ? signed_percent(h.value / *h.baseline - 1) : "-",
               note.empty() ? "-" : note});
  }
  out << "<section id=\"summary\"><h2>Summary: headline figures</h2>"
      << "<p class=\"meta\">Per-GPU figures are the median over GPUs; peaks are the data sheet's or the link's; "
         "floors are the GPU model's (a GPU under its floor fails).</p>\n";
  t.write_html(out, "summary");
  out << "</section>\n";
}

void write_suspects(const IsolationRecord& r, std::ostream& out) {
  out << "<section id=\"suspects\"><h2>Slow-node isolation: suspects</h2><p class=\"meta\">" << r.node_hosts.size()
      << " nodes, " << r.rounds << " rounds of random node pairs at " << escape(size_label(r.bytes)) << ", "
      << r.bisection.size() << " bisection steps" << (r.bisection_note.empty() ? "" : ": " + escape(r.bisection_note))
      << "</p>\n";
  if (r.suspects.empty()) {
    out << "<p id=\"no-suspect\">No node named: every node passed most of its rounds.</p>\n";
  } else {
    Table t({"rank", "node", "host", "rounds failed", "score", "bisection", "evidence"});
    int place = 0;
    for (const auto& s : r.suspects)
      t.add_row({std::to_string(++place), std::to_string(s.node), s.host.empty() ? "-" : s.host,
                 std::to_string(s.rounds_failed) + " of " + std::to_string(s.rounds_counted), fixed(s.score, 2),
                 s.by_bisection ? "named" : "-", s.evidence});
    t.write_html(out, "suspects");
  }
  write_every_node(r, out);
  out << "</section>\n";
}

void write_node_heat_map(const RunReport& run, const std::vector<Headline>& headlines, std::ostream& out) {
  std::vector<const Headline*> columns;
  for (const auto& h : headlines)
    if (!h.per_rank.empty()) columns.push_back(&h);
  if (run.node_count < 2 || columns.empty()) return;
  // node -> its worst GPU per column
  std::map<int, std::vector<double>> nodes;
  std::map<int, std::string> hosts;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (const auto& [rank, value] : columns[c]->per_rank) {
      // A GPU measured beside another process is not compared with the others.
      if (rank < 0 || rank >= static_cast<int>(run.ranks.size()) || columns[c]->beside_tenant_ranks.count(rank))
        continue;
      const auto& e = run.ranks[static_cast<std::size_t>(rank)];
      hosts[e.node] = e.host;
      auto& row = nodes[e.node];
      row.resize(columns.size(), std::nan(""));
      if (std::isnan(row[c]) || worse_by(value, row[c], columns[c]->better) > 0) row[c] = value;
    }
  }
  std::vector<double> medians;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    std::vector<double> values;
    for (const auto& [node, row] : nodes)
      if (c < row.size() && !std::isnan(row[c])) values.push_back(row[c]);
    medians.push_back(median(values));
  }
  out << "<section id=\"node-heat\"><h2>Nodes against the median node</h2><p class=\"meta\">Each cell: the node's "
         "worst GPU and its difference from the median over nodes; redder is further on the worse side (full red at "
      << fixed(kHeatFullScale * 100, 0) << "%).</p>\n<table class=\"heat\"><tr><th>node</th><th>host</th>";
  for (const auto* h : columns) out << "<th>" << escape(h->title) << " (" << escape(h->unit) << ")</th>";
  out << "</tr>\n";
  for (const auto& [node, row] : nodes) {
    out << "<tr><td>" << node << "</td><td>" << escape(hosts[node]) << "</td>";
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c >= row.size() || std::isnan(row[c])) {
        out << "<td>-</td>";
        continue;
      }
      const double worse = worse_by(row[c], medians[c], columns[c]->better);
      out << "<td style=\"" << heat_style(worse) << "\" data-worse=\"" << fixed(worse, 3) << "\">" << si_compact(row[c])
          << " (" << (medians[c] > 0 ? signed_percent(row[c] / medians[c] - 1) : "-") << ")</td>";
    }
    out << "</tr>\n";
  }
  out << "</table></section>\n";
}

}  // namespace gpuscale::results
