#include "results/ConsoleReporter.hpp"

#include <map>
#include <set>

#include "results/ComputeTable.hpp"
#include "results/Format.hpp"
#include "results/Table.hpp"
#include "results/TrainTable.hpp"

namespace gpuscale::results {
namespace {

std::string gpu_memory(const GpuInfo& g) {
  return gib(g.memory_free_bytes) + "/" + gib(g.memory_total_bytes);
}

std::string power(const GpuInfo& g) {
  if (!g.power_draw_w) return "-";
  return fixed(*g.power_draw_w, 0) + "/" + (g.power_limit_w ? fixed(*g.power_limit_w, 0) : "-");
}

std::string smoke(const SmokeTest& s) {
  if (!s.ran) return s.skipped_reason.empty() ? "-" : "skipped";
  if (!s.passed) return "FAILED";
  return "ok " + fixed(s.op_s * 1e3, 2) + "ms";
}

void write_ranks(const RunReport& r, std::ostream& out) {
  Table t({"rank", "host", "node", "local", "gpu", "name", "pci bus", "mem free/total GiB", "sm MHz",
           "temp C", "power W", "numa", "cpus", "smoke allreduce"});
  for (const auto& e : r.ranks) {
    std::vector<std::string> row = {std::to_string(e.rank), e.host, std::to_string(e.node),
                                    std::to_string(e.local_rank)};
    if (e.gpu) {
      const auto& g = *e.gpu;
      row.insert(row.end(), {std::to_string(g.cuda_index), g.name, g.pci_bus_id, gpu_memory(g),
                             or_dash(g.sm_clock_mhz), or_dash(g.temperature_c), power(g),
                             std::to_string(g.numa_node)});
    } else {
      row.insert(row.end(), {"-", "cpu: " + e.cpu_model, "-", "-", "-", "-", "-", "-"});
    }
    row.push_back(e.cpu_affinity);
    row.push_back(smoke(e.smoke));
    t.add_row(std::move(row));
  }
  out << "Ranks\n";
  t.write(out);
}

void write_versions(const RunReport& r, std::ostream& out) {
  if (r.ranks.empty()) return;
  const auto& v = r.ranks.front().versions;
  out << "Versions (rank 0; differences across ranks are listed under Checks)\n";
  if (r.ranks.front().backend == "cuda") {
    out << "  driver " << (v.driver.empty() ? "-" : v.driver) << " | CUDA driver API "
        << cuda_version_string(v.cuda_driver_api) << " | CUDA runtime " << cuda_version_string(v.cuda_runtime)
        << " | cuBLAS " << dotted_version(v.cublas) << " | cuDNN " << dotted_version(v.cudnn_library)
        << " (header " << dotted_version(v.cudnn_header) << ") | NCCL "
        << dotted_version(v.nccl_library) << " (header " << dotted_version(v.nccl_header) << ")\n";
  }
  out << "  MPI " << v.mpi_library << " (standard " << v.mpi_standard << ")\n";
}

// Links between GPUs of one node, from each GPU's NVML NVLink groups and CUDA peer access.
void write_topology(const RunReport& r, std::ostream& out) {
  std::map<int, std::map<std::string, const GpuInfo*>> by_node;  // node -> bus id -> GPU
  for (const auto& e : r.ranks)
    if (e.gpu) by_node[e.node].emplace(normalize_pci_bus_id(e.gpu->pci_bus_id), &*e.gpu);
  Table t({"node", "gpu", "peer", "nvlink", "p2p"});
  for (const auto& [node, gpus] : by_node) {
    for (const auto& [bus, gpu] : gpus) {
      std::set<std::string> peers;
      for (const auto& l : gpu->nvlinks) peers.insert(normalize_pci_bus_id(l.remote_pci_bus_id));
      for (const auto& p : gpu->peers) peers.insert(normalize_pci_bus_id(p.peer_pci_bus_id));
      for (const auto& peer : peers) {
        if (peer <= bus && gpus.count(peer)) continue;  // each GPU pair once
        std::string nv = "-";
        for (const auto& l : gpu->nvlinks)
          if (normalize_pci_bus_id(l.remote_pci_bus_id) == peer)
            nv = "NV" + std::to_string(l.link_count) + " (v" + std::to_string(l.version) + ")";
        std::string p2p = "-";
        for (const auto& p : gpu->peers)
          if (normalize_pci_bus_id(p.peer_pci_bus_id) == peer) p2p = p.can_access ? "yes" : "NO";
        const std::string label = gpus.count(peer) ? peer : peer + " (not a GPU of this job)";
        t.add_row({std::to_string(node), bus, label, nv, p2p});
      }
    }
  }
  if (t.empty()) return;
  out << "Topology\n";
  t.write(out);
}

void write_checks(const RunReport& r, std::ostream& out) {
  out << "Checks\n";
  if (r.checks.empty()) {
    out << "  none\n";
    return;
  }
  for (const auto& c : r.checks) {
    out << "  " << to_string(c.severity) << "  " << c.id;
    if (!c.ranks.empty()) out << "  [ranks " << join_ints(c.ranks) << "]";
    out << "  " << c.message << '\n';
  }
}

}  // namespace

void ConsoleReporter::write(const RunReport& r, std::ostream& out) const {
  const std::string backend = r.ranks.empty() ? "-" : r.ranks.front().backend;
  out << "gpuscale " << r.tool_version << " | " << r.world_size << " rank" << (r.world_size == 1 ? "" : "s")
      << " on " << r.node_count << " node" << (r.node_count == 1 ? "" : "s") << " | backend " << backend
      << " | " << r.start_time << (r.interrupted ? " | INTERRUPTED" : "") << '\n';
  write_ranks(r, out);
  write_versions(r, out);
  write_topology(r, out);
  write_compute_table(r.compute, out);
  write_train_tables(r.train, out);
  write_checks(r, out);
  out << "Verdict: " << (r.verdict.passed ? "PASS" : "FAIL") << '\n';
  for (const auto& reason : r.verdict.reasons) out << "  - " << reason << '\n';
}

}  // namespace gpuscale::results
