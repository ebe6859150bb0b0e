#include "results/report/HtmlReporter.hpp"

#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/Markup.hpp"
#include "results/base/Table.hpp"
#include "results/charts/SvgCanvas.hpp"
#include "results/models/GpuLabels.hpp"
#include "results/render/CoverageTable.hpp"
#include "results/report/Headlines.hpp"
#include "results/report/HtmlSections.hpp"
#include "results/report/NodeTables.hpp"
#include "results/report/PhaseSections.hpp"
#include "results/report/ReportCharts.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

using markup::escape;

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
    "th{background:#f3f3f3}.verdict{font-size:22px;font-weight:bold;padding:10px 14px;border-radius:6px;display:inline-block}"
    ".PASS{background:#d8f5d8;color:#105010}.FAIL{background:#fadada;color:#801010}.WARN{background:#fff1c9;color:#6a5000}"
    ".SKIP{background:#ececec;color:#444}"
    "svg.chart{border:1px solid #ddd;margin:6px 0;font-size:11px}svg .axis line{stroke:#444}svg .grid{stroke:#eee}"
    "svg .chart-title{font-size:14px;font-weight:bold}svg .outlier{stroke:#d00}.meta{color:#555}"
    "table.heat td{text-align:right}details summary{cursor:pointer;margin:6px 0}h3{font-size:15px;margin:14px 0 4px}";

// The verdict, then what failed or warned with its fix (the check's message), then every rule folded.
void write_verdict(const RunReport& r, std::ostream& out) {
  const char* result = verdict_result(r.verdict);
  out << "<section id=\"verdict\"><div class=\"verdict " << (r.verdict.passed ? "PASS" : "FAIL")
      << "\">Verdict: " << result << (r.interrupted ? " (interrupted)" : "") << "</div>\n";
  Table failed({"severity", "check", "ranks", "finding and fix"});
  for (const auto& c : r.checks)
    if (c.severity != Severity::info)
      failed.add_row({std::string(to_string(c.severity)), c.id, c.ranks.empty() ? "all" : join_ints(c.ranks), c.message},
                     c.severity == Severity::error ? "FAIL" : "WARN");
  if (!failed.empty()) {
    out << "<h2>Failed and warned checks</h2>";
    failed.write_html(out, "", "failed-checks");
  }
  Table rules({"result", "rule", "detail"});
  for (const auto& rule : r.verdict.rules) {
    const std::string text(to_string(rule.result));
    rules.add_row({text, rule.name, rule.detail}, text);
  }
  out << "<details class=\"rules\"><summary>The verdict's " << r.verdict.rules.size() << " rules</summary>";
  rules.write_html(out, "rules");
  out << "</details></section>\n";
}

// Past a few nodes: one row per node (its worst GPU per phase) in place of one per rank.
void write_nodes(const RunReport& r, std::ostream& out) {
  auto s = node_summary(r);
  Table t(s.header);
  for (auto& row : s.rows) t.add_row(std::move(row));
  out << "<section id=\"environment\"><h2>Nodes</h2>";
  t.write_html(out, "", "nodes");
  out << "<p class=\"meta\">every rank is in the JSON and CSV</p></section>\n";
}

std::string smoke_text(const SmokeAllreduce& s) {
  if (!s.ran) return s.skipped_reason.empty() ? "-" : "skipped: " + s.skipped_reason;
  return s.passed ? "ok " + fixed(s.op_s * 1e3, 3) + " ms" : "FAILED " + s.error;
}

void write_environment(const RunReport& r, std::ostream& out) {
  if (shows_nodes(r)) {
    write_nodes(r, out);
    return;
  }
  Table t({"rank", "host", "node", "local", "backend", "GPU", "PCI bus", "memory GiB", "SM MHz", "temp C", "power W",
           "CPUs", "smoke allreduce"});
  for (const auto& e : r.ranks) {
    std::vector<std::string> row = {std::to_string(e.rank), e.host, std::to_string(e.node),
                                    std::to_string(e.local_rank), e.backend};
    if (e.gpu) {
      const auto& g = *e.gpu;
      row.insert(row.end(), {g.name, g.pci_bus_id, gib(g.memory_total_bytes), or_dash(g.sm_clock_mhz),
                             or_dash(g.temperature_c), g.power_draw_w ? fixed(*g.power_draw_w, 0) : "-"});
    } else {
      row.insert(row.end(), {"cpu: " + e.cpu_model, "-", "-", "-", "-", "-"});
    }
    row.insert(row.end(), {e.cpu_affinity, smoke_text(e.smoke)});
    t.add_row(std::move(row));
  }
  out << "<section id=\"environment\"><details" << (r.ranks.size() > kOpenRows ? "" : " open")
      << "><summary>Environment: " << r.ranks.size() << " ranks</summary>";
  t.write_html(out);
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
  Table t({"phase", "metric", "labels", "value", "unit"});
  std::size_t per_gpu = 0;
  for (const auto& f : figures) {
    if (nodes_only && f.labels.count(names::kRank)) {
      ++per_gpu;
      continue;
    }
    t.add_row({f.phase, f.metric, labels_text(f.labels),
               measures_no_bus(f) ? "-" : shortest(f.value) + (f.beside_tenant ? std::string(" ") + kBesideTenantMark : ""),
               f.unit});
  }
  out << "<section id=\"figures\"><details><summary>All " << figures.size() - per_gpu << " figures"
      << (per_gpu ? " of the job and its nodes (its " + std::to_string(per_gpu) + " per-GPU figures are in the JSON and CSV)"
                  : "")
      << "</summary>";
  t.write_html(out);
  out << "</details></section>\n";
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
  if (r.emulation)
    out << "<p class=\"meta\" id=\"emulation\">Test layout: " << escape(emulation_text(*r.emulation, r.node_count))
        << "</p>\n";
  write_verdict(r, out);
  write_coverage_html(r.verdict, out);
  const auto key_figures = headlines(r, figures, baseline);
  write_summary(key_figures, out);
  if (r.collectives && r.collectives->isolation) write_suspects(*r.collectives->isolation, r.suspects, out);
  write_node_heat_map(r, key_figures, figures, out);
  // Past a few nodes the charts, like the tables, draw nodes rather than ranks.
  std::vector<PhaseNote> notes;
  if (r.projection)
    for (const auto& text : r.projection->notes) notes.push_back({names::kProjection, text});
  write_phase_sections(figures, report_charts(figures, shows_nodes(r) ? rank_node_names(r.ranks) : RankNodes{}),
                       notes, out);
  write_environment(r, out);
  write_figures(figures, shows_nodes(r), out);
  out << "</body></html>\n";
}

HtmlReporter::HtmlReporter(const Baseline* baseline) : baseline_(baseline) {}

void HtmlReporter::write(const RunReport& report, std::ostream& out) const {
  write_html(report, flatten(report), out, baseline_);
}

}  // namespace gpuscale::results
