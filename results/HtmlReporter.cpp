#include "results/HtmlReporter.hpp"

#include "results/FigureNames.hpp"
#include "results/Format.hpp"
#include "results/GpuLabels.hpp"
#include "results/Headlines.hpp"
#include "results/HtmlSections.hpp"
#include "results/NodeTables.hpp"
#include "results/PhaseSections.hpp"
#include "results/ReportCharts.hpp"
#include "results/SvgCanvas.hpp"

namespace gpuscale::results {
namespace {

using svg::escape;

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
    "th{background:#f3f3f3}.verdict{font-size:22px;font-weight:bold;padding:10px 14px;border-radius:6px;display:inline-block}"
    ".PASS{background:#d8f5d8;color:#105010}.FAIL{background:#fadada;color:#801010}.WARN{background:#fff1c9;color:#6a5000}"
    "svg.chart{border:1px solid #ddd;margin:6px 0;font-size:11px}svg .axis line{stroke:#444}svg .grid{stroke:#eee}"
    "svg .chart-title{font-size:14px;font-weight:bold}svg .outlier{stroke:#d00}.meta{color:#555}"
    "table.heat td{text-align:right}details summary{cursor:pointer;margin:6px 0}h3{font-size:15px;margin:14px 0 4px}";

// The verdict, then what failed or warned with its fix (the check's message), then every rule folded.
void write_verdict(const RunReport& r, std::ostream& out) {
  const char* result = verdict_result(r.verdict);
  out << "<section id=\"verdict\"><div class=\"verdict " << (r.verdict.passed ? "PASS" : "FAIL")
      << "\">Verdict: " << result << (r.interrupted ? " (interrupted)" : "") << "</div>\n";
  bool any = false;
  for (const auto& c : r.checks) {
    if (c.severity == Severity::info) continue;
    if (!any)
      out << "<h2>Failed and warned checks</h2><table id=\"failed-checks\"><tr><th>severity</th><th>check</th>"
             "<th>ranks</th><th>finding and fix</th></tr>\n";
    any = true;
    out << "<tr class=\"" << (c.severity == Severity::error ? "FAIL" : "WARN") << "\"><td>" << to_string(c.severity)
        << "</td><td>" << escape(c.id) << "</td><td>" << (c.ranks.empty() ? "all" : join_ints(c.ranks)) << "</td><td>"
        << escape(c.message) << "</td></tr>\n";
  }
  if (any) out << "</table>\n";
  out << "<details class=\"rules\"><summary>The verdict's " << r.verdict.rules.size() << " rules</summary>"
      << "<table class=\"rules\"><tr><th>result</th><th>rule</th><th>detail</th></tr>\n";
  for (const auto& rule : r.verdict.rules) {
    const auto text = std::string(to_string(rule.result));
    out << "<tr class=\"" << text << "\"><td>" << text << "</td><td>" << escape(rule.name) << "</td><td>"
        << escape(rule.detail) << "</td></tr>\n";
  }
  out << "</table></details></section>\n";
}

// Past a few nodes: one row per node (its worst GPU per phase) in place of one per rank.
void write_nodes(const RunReport& r, std::ostream& out) {
  const auto s = node_summary(r);
  out << "<section id=\"environment\"><h2>Nodes</h2><table id=\"nodes\"><tr>";
  for (const auto& h : s.header) out << "<th>" << escape(h) << "</th>";
  out << "</tr>\n";
  for (const auto& row : s.rows) {
    out << "<tr>";
    for (const auto& cell : row) out << "<td>" << escape(cell) << "</td>";
    out << "</tr>\n";
  }
  out << "</table><p class=\"meta\">every rank is in the JSON and CSV</p></section>\n";
}

void write_environment(const RunReport& r, std::ostream& out) {
  if (shows_nodes(r)) {
    write_nodes(r, out);
    return;
  }
  out << "<section id=\"environment\"><details" << (r.ranks.size() > kOpenRows ? "" : " open")
      << "><summary>Environment: " << r.ranks.size()
      << " ranks</summary><table><tr><th>rank</th><th>host</th><th>node</th>"
         "<th>local</th><th>backend</th><th>GPU</th><th>PCI bus</th><th>memory GiB</th><th>SM MHz</th><th>temp C</th>"
         "<th>power W</th><th>CPUs</th><th>smoke allreduce</th></tr>\n";
  for (const auto& e : r.ranks) {
    out << "<tr><td>" << e.rank << "</td><td>" << escape(e.host) << "</td><td>" << e.node << "</td><td>"
        << e.local_rank << "</td><td>" << escape(e.backend) << "</td>";
    if (e.gpu) {
      const auto& g = *e.gpu;
      out << "<td>" << escape(g.name) << "</td><td>" << escape(g.pci_bus_id) << "</td><td>" << gib(g.memory_total_bytes)
          << "</td><td>" << or_dash(g.sm_clock_mhz) << "</td><td>" << or_dash(g.temperature_c) << "</td><td>"
          << (g.power_draw_w ? fixed(*g.power_draw_w, 0) : "-") << "</td>";
    } else {
      out << "<td>" << escape("cpu: " + e.cpu_model) << "</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>";
    }
    const auto& s = e.smoke;
    const std::string smoke = !s.ran ? (s.skipped_reason.empty() ? "-" : "skipped: " + s.skipped_reason)
                              : s.passed ? "ok " + fixed(s.op_s * 1e3, 3) + " ms" : "FAILED " + s.error;
    out << "<td>" << escape(e.cpu_affinity) << "</td><td>" << escape(smoke) << "</td></tr>\n";
  }
  out << "</table>";
  if (!r.ranks.empty()) {
    const auto& v = r.ranks.front().versions;
    out << "<p class=\"meta\">rank 0: driver " << escape(v.driver.empty() ? "-" : v.driver) << ", CUDA runtime "
        << cuda_version_string(v.cuda_runtime) << ", NCCL " << dotted_version(v.nccl_library) << ", cuDNN "
        << dotted_version(v.cudnn_library) << ", cuBLAS " << dotted_version(v.cublas) << ", MPI "
        << escape(v.mpi_library) << "</p>";
  }
  out << "</details></section>\n";
}

// Every figure, folded; past a few nodes, those of one GPU (labelled rank) only in the JSON and CSV.
void write_figures(const std::vector<Figure>& figures, bool nodes_only, std::ostream& out) {
  std::size_t per_gpu = 0;
  for (const auto& f : figures) per_gpu += nodes_only && f.labels.count(names::kRank) ? 1 : 0;
  out << "<section id=\"figures\"><details><summary>All " << figures.size() - per_gpu << " figures"
      << (per_gpu ? " of the job and its nodes (its " + std::to_string(per_gpu) + " per-GPU figures are in the JSON and CSV)"
                  : "")
      << "</summary><table><tr><th>phase</th><th>metric</th><th>labels</th><th>value</th><th>unit</th></tr>\n";
  for (const auto& f : figures)
    if (!nodes_only || !f.labels.count(names::kRank))
      out << "<tr><td>" << escape(f.phase) << "</td><td>" << escape(f.metric) << "</td><td>"
          << escape(labels_text(f.labels)) << "</td><td>" << shortest(f.value) << "</td><td>" << escape(f.unit)
          << "</td></tr>\n";
  out << "</table></details></section>\n";
}

}  // namespace

void write_html(const RunReport& r, const std::vector<Figure>& figures, std::ostream& out, const Baseline* baseline) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gpuscale report "
      << escape(r.start_time) << "</title>";
  if (!r.output_set.empty()) out << "<meta name=\"gpuscale-output-set\" content=\"" << escape(r.output_set) << "\">";
  out << "<style>" << kStyle << "</style></head><body>\n<h1>gpuscale report</h1>\n"
      << "<p class=\"meta\">gpuscale " << escape(r.tool_version) << " | " << r.world_size << " ranks on " << r.node_count
      << " nodes | " << escape(r.start_time) << " | " << fixed(r.elapsed_s, 1) << " s | <code>" << escape(r.command_line)
      << "</code>" << (r.output_set.empty() ? "" : " | output set " + escape(r.output_set)) << "</p>\n";
  write_verdict(r, out);
  const auto key_figures = headlines(r, figures, baseline);
  write_summary(key_figures, out);
  if (r.collectives && r.collectives->isolation) write_suspects(*r.collectives->isolation, out);
  write_node_heat_map(r, key_figures, out);
  // Past a few nodes the charts, like the tables, draw nodes rather than ranks.
  write_phase_sections(figures, report_charts(figures, shows_nodes(r) ? rank_node_names(r.ranks) : RankNodes{}), out);
  write_environment(r, out);
  write_figures(figures, shows_nodes(r), out);
  out << "</body></html>\n";
}

HtmlReporter::HtmlReporter(const Baseline* baseline) : baseline_(baseline) {}

void HtmlReporter::write(const RunReport& report, std::ostream& out) const {
  write_html(report, flatten(report), out, baseline_);
}

}  // namespace gpuscale::results
