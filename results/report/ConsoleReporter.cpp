#include "results/report/ConsoleReporter.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <streambuf>

#include "phases/collectives/CollectivesReporter.hpp"
#include "results/base/Format.hpp"
#include "results/base/GpuPeak.hpp"
#include "results/base/Table.hpp"
#include "results/base/Utf8.hpp"
#include "results/render/CoverageTable.hpp"
#include "results/render/FindingText.hpp"
#include "results/render/ProjectionReporter.hpp"
#include "results/report/ConsoleLaunch.hpp"
#include "results/report/ConsoleSummary.hpp"
#include "results/report/NodeTables.hpp"
#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

// Text from outside (host names, GPU names, messages) reaches a terminal: a control character in
// it could move the cursor, recolour or hide lines. Every one but newline and tab is written as
// \xHH, as the JSON escapes bytes that are not UTF-8.
class ControlEscaper final : public std::streambuf {
 public:
  explicit ControlEscaper(std::streambuf* target) : target_(target) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize start = 0;
    for (std::streamsize i = 0; i < n; ++i) {
      const auto byte = static_cast<unsigned char>(s[i]);
      if ((byte >= 0x20 && byte != 0x7f) || byte == '\n' || byte == '\t') continue;
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      if (target_->sputn(s + start, i - start) != i - start || target_->sputn(escaped, 4) != 4) return 0;
      start = i + 1;
    }
    return target_->sputn(s + start, n - start) == n - start ? n : 0;
  }
  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
};

// `text` if it fits in `room` bytes; else its words that fit, then " ... (rest in the JSON)".
std::string shortened(const std::string& text, std::size_t room) {
  constexpr std::string_view kRest = " ... (rest in the JSON)";
  if (text.size() <= room) return text;
  const std::size_t keep = room > kRest.size() + 20 ? room - kRest.size() : 20;  // never less than a few words
  auto cut = text.rfind(' ', keep);
  if (cut == std::string::npos || cut < keep / 2) cut = utf8_cut(text, keep);  // no space near
  while (cut > 0 && (text[cut - 1] == ' ' || text[cut - 1] == ',' || text[cut - 1] == ';' || text[cut - 1] == ':')) --cut;
  return text.substr(0, cut) + std::string(kRest);
}

std::string gpu_memory(const GpuInfo& g) {
  return gib(g.memory_free_bytes) + "/" + gib(g.memory_total_bytes);
}

std::string power(const GpuInfo& g) {
  if (!g.power_draw_w) return "-";
  return fixed(*g.power_draw_w, 0) + "/" + (g.power_limit_w ? fixed(*g.power_limit_w, 0) : "-");
}

std::string smoke(const SmokeAllreduce& s) {
  if (!s.ran) return s.skipped_reason.empty() ? "-" : "skipped";
  if (!s.passed) return "FAILED";
  return "ok " + fixed(s.op_s * 1e3, 2) + "ms";
}

void write_ranks(const RunReport& r, std::ostream& out) {
  Table t({"rank", "host", "node", "local", "gpu", "name", "pci bus", "mem free/total GiB", "hbm peak TB/s", "sm MHz",
           "temp C", "power W", "numa", "cpus", "smoke allreduce"});
  for (const auto& e : r.ranks) {
    std::vector<std::string> row = {std::to_string(e.rank), e.host, std::to_string(e.node),
                                    std::to_string(e.local_rank)};
    if (e.gpu) {
      const auto& g = *e.gpu;
      const auto hbm = peak_memory_gbps(g.name);
      row.insert(row.end(), {std::to_string(g.cuda_index), g.name, g.pci_bus_id, gpu_memory(g),
                             hbm ? fixed(*hbm / 1000, 2) : "-", or_dash(g.sm_clock_mhz), or_dash(g.temperature_c), power(g),
                             std::to_string(g.numa_node)});
    } else {
      row.insert(row.end(), {"-", "cpu: " + e.cpu_model, "-", "-", "-", "-", "-", "-", "-"});
    }
    row.push_back(e.cpu_affinity);
    row.push_back(smoke(e.smoke));
    t.add_row(std::move(row));
  }
  out << section_header("Env: ranks");
  t.write(out);
}

void write_versions(const RunReport& r, std::ostream& out) {
  if (r.ranks.empty()) return;
  const auto& v = r.ranks.front().versions;
  out << section_header("Env: versions (rank 0)", "differences across ranks are listed under Checks");
  if (r.ranks.front().backend == "cuda") {
    out << "  driver " << (v.driver.empty() ? "-" : v.driver) << " | CUDA driver API "
        << cuda_version_string(v.cuda_driver_api) << " | CUDA runtime " << cuda_version_string(v.cuda_runtime)
        << " | cuBLAS " << dotted_version(v.cublas) << " | cuDNN " << dotted_version(v.cudnn_library)
        << " (header " << dotted_version(v.cudnn_header) << ") | NCCL "
        << dotted_version(v.nccl_library) << " (header " << dotted_version(v.nccl_header) << ")\n";
  }
  out << "  MPI " << v.mpi_library << " (standard " << v.mpi_standard << ")\n";
}

std::string nvlink_summary(const GpuInfo& g) {
  int links = 0;
  for (const auto& l : g.nvlinks) links += l.link_count;
  if (links == 0) return "-";
  return std::to_string(links) + " x NVLink " + nvlink_version_name(g.nvlinks.front().version);
}

std::string pcie_summary(const GpuInfo& g) {
  if (!g.pcie_gen || !g.pcie_width) return "-";
  std::string s = "gen" + std::to_string(*g.pcie_gen) + " x" + std::to_string(*g.pcie_width);
  if (g.pcie_gen_max && g.pcie_width_max) s += " (max gen" + std::to_string(*g.pcie_gen_max) + " x" + std::to_string(*g.pcie_width_max) + ")";
  return s;
}

// Each GPU's links, then each pair of the node's GPUs once, as nvidia-smi topo names them (NV#).
void write_topology(const RunReport& r, std::ostream& out) {
  std::map<int, std::map<std::string, const GpuInfo*>> by_node;  // node -> bus id -> GPU
  for (const auto& e : r.ranks)
    if (e.gpu) by_node[e.node].emplace(normalize_pci_bus_id(e.gpu->pci_bus_id), &*e.gpu);
  Table links({"node", "gpu", "nvlinks", "pcie (current, max)"});
  Table pairs({"node", "gpu", "peer", "link", "cuda p2p"});
  for (const auto& [node, gpus] : by_node) {
    for (const auto& [bus, gpu] : gpus) {
      if (!gpu->nvlinks.empty() || gpu->pcie_gen) links.add_row({std::to_string(node), bus, nvlink_summary(*gpu), pcie_summary(*gpu)});
      for (const auto& p : gpu->peers) {
        const auto peer = normalize_pci_bus_id(p.peer_pci_bus_id);
        if (peer <= bus && gpus.count(peer)) continue;  // each pair once
        const std::string link = p.nvlink_count > 0 ? "NV" + std::to_string(p.nvlink_count)
                                 : gpu->pcie_gen     ? "PCIe"
                                                     : "-";
        const std::string p2p = p.cuda_visible ? (p.can_access ? "yes" : "NO") : "-";
        pairs.add_row({std::to_string(node), bus, gpus.count(peer) ? peer : peer + " (not in this job)", link, p2p});
      }
    }
  }
  if (links.empty()) return;
  out << section_header("Env: GPU links");
  links.write(out);
  if (pairs.empty()) return;
  out << section_header("Env: GPU pairs");
  pairs.write(out);
}

// One line per check, at most kConsoleLineChars: a longer message is cut at a word and the line says
// where the rest is (the JSON, CSV and HTML keep every message whole).
void write_checks(const RunReport& r, std::ostream& out) {
  out << section_header("Checks");
  if (r.checks.empty()) {
    out << "  none\n";
    return;
  }
  for (const auto& c : r.checks) {
    std::string head = "  " + std::string(to_string(c.severity)) + "  " + finding_name(c);
    if (const auto scope = finding_scope(c); !scope.empty()) head += "  [" + scope + "]";
    const std::string more = c.count > 1 ? " (+" + std::to_string(c.count - 1) + " more like it in the JSON)" : "";
    const std::size_t used = head.size() + 2 + more.size();
    out << head << "  " << shortened(c.message, used < kConsoleLineChars ? kConsoleLineChars - used : 0) << more << '\n';
  }
}

// The PASS/WARN/FAIL list last, where a job log's tail shows it.
void write_verdict(const Verdict& v, std::ostream& out) {
  out << section_header(std::string("Verdict: ") + verdict_result(v));
  if (v.rules.empty()) {
    for (const auto& reason : v.reasons) out << "  - " << reason << '\n';
    return;
  }
  for (const auto& rule : v.rules) {
    const std::string head = "  " + std::string(to_string(rule.result)) + "  " + rule.name + "  (";
    const std::size_t used = head.size() + 1;
    out << head << shortened(rule.detail, used < kConsoleLineChars ? kConsoleLineChars - used : 0) << ")\n";
  }
}

// Past a few nodes (per_rank false), one line per node stands in for every per-rank table (the JSON and
// CSV keep them).
void write_tables(const RunReport& r, bool per_rank, std::ostream& out) {
  if (per_rank) write_ranks(r, out);
  write_launch(r, out);
  write_versions(r, out);
  if (per_rank) write_topology(r, out);
  else write_node_table(r, out);
  for (const auto& view : phase_views())
    if (view.console) view.console(r, r.marks, per_rank, out);
  if (r.collectives && r.collectives->isolation) write_isolation(*r.collectives->isolation, r.suspects, out);
  if (r.projection) write_projection(*r.projection, out);
}

// The job in one line: how many GPUs of which models on how many nodes, and the versions that matter.
void write_job_line(const RunReport& r, std::ostream& out) {
  std::map<std::string, int> models;
  for (const auto& e : r.ranks) ++models[e.gpu ? e.gpu->name : "cpu: " + e.cpu_model];
  std::string text;
  for (const auto& [model, count] : models) text += (text.empty() ? "" : ", ") + std::to_string(count) + " x " + model;
  out << section_header("Env");
  out << "  " << (text.empty() ? "no ranks" : text);
  if (!r.ranks.empty()) {
    const auto& v = r.ranks.front().versions;
    if (!v.driver.empty()) out << " | driver " << v.driver;
    if (v.cuda_runtime) out << " | CUDA " << cuda_version_string(v.cuda_runtime);
    if (v.nccl_library) out << " | NCCL " << dotted_version(v.nccl_library);
    out << " | " << v.mpi_library;
  }
  out << '\n';
}

}  // namespace

void ConsoleReporter::write(const RunReport& r, std::ostream& console) const {
  ControlEscaper escaper(console.rdbuf());
  std::ostream out(&escaper);
  const std::string backend = r.ranks.empty() ? "-" : r.ranks.front().backend;
  out << "gpuscale " << r.tool_version << " | " << r.world_size << " rank" << (r.world_size == 1 ? "" : "s")
      << " on " << r.node_count << " node" << (r.node_count == 1 ? "" : "s") << " | backend " << backend
      << " | " << r.start_time << (r.interrupted ? " | INTERRUPTED" : "") << '\n';
  if (r.emulation) out << "Test layout: " << emulation_text(*r.emulation, r.node_count) << '\n';
  if (view_ == ConsoleView::summary) {
    write_job_line(r, out);
    write_launch(r, out);
    if (shows_nodes(r)) write_node_table(r, out);  // past a few nodes, one line per node
    write_phase_summary(r, out);
  } else {
    write_tables(r, !shows_nodes(r), out);
  }
  write_outlier_table(r.outliers, r.straggler_threshold, out);
  write_coverage(r.verdict, out);
  write_checks(r, out);
  for (const auto& skipped : r.phases_skipped) out << "Skipped " << skipped.phase << ": " << skipped.reason << '\n';
  write_verdict(r.verdict, out);
  if (!out) console.setstate(std::ios::badbit);
}

}  // namespace gpuscale::results
