#include "results/report/ConsoleLaunch.hpp"

#include <map>

#include "results/base/Format.hpp"
#include "results/base/Table.hpp"
#include "results/report/NodeTables.hpp"

namespace gpuscale::results {
namespace {

std::string dash_if_empty(const std::string& s) { return s.empty() ? "-" : s; }
std::string dash_if_zero(int v) { return v > 0 ? std::to_string(v) : "-"; }

std::string variable(const RankEnv& e, const char* name) {
  const auto it = e.variables.find(name);
  return it == e.variables.end() ? "-" : it->second;
}

void write_job_line(const RankEnv& e, const RunReport& r, std::ostream& out) {
  out << section_header("Env: launch") << "  launcher " << dash_if_empty(e.launcher);
  if (e.slurm) {
    const auto& s = *e.slurm;
    out << " | Slurm job " << s.job_id;
    if (!s.step_id.empty()) out << " step " << s.step_id;
    if (!s.partition.empty()) out << " (partition " << s.partition << ")";
    out << " | " << s.nodes << " node" << (s.nodes == 1 ? "" : "s") << " " << dash_if_empty(s.node_list) << " | "
        << s.tasks << " task" << (s.tasks == 1 ? "" : "s") << ", per node " << dash_if_empty(s.tasks_per_node)
        << " | CPUs per task " << dash_if_zero(s.cpus_per_task) << " | GPUs per task " << dash_if_empty(s.gpus_per_task)
        << ", per node " << dash_if_empty(s.gpus_per_node) << ", on node " << dash_if_zero(s.gpus_on_node);
    if (!s.mpi_type.empty()) out << " | --mpi=" << s.mpi_type;
  }
  out << " | MPI: " << r.world_size << " rank" << (r.world_size == 1 ? "" : "s") << " on " << r.node_count
      << " node" << (r.node_count == 1 ? "" : "s") << '\n';
}

// One line per distinct NCCL view: "NCCL: 2 nodes via NET/Socket (network Socket) [ranks 0,1]; smoke
// allreduce 4 MiB ok, 0.312 ms". The smoke test is one verified call: its time says the stack works end to
// end, not what the links carry (a cold 4 MiB call read 13 GB/s busbw on NV18); the collectives phase
// measures that. A one-rank communicator uses no transport at all.
void write_nccl_paths(const RunReport& r, std::ostream& out) {
  std::map<std::string, std::vector<int>> views;
  for (const auto& e : r.ranks) {
    if (!e.smoke.nccl.captured) continue;
    const auto& p = e.smoke.nccl;
    std::string view = p.transports.empty() ? "no transport (one rank)"
                                            : std::to_string(p.nodes) + " node" + (p.nodes == 1 ? "" : "s") + " via " +
                                                  join_words(p.transports) +
                                                  (p.network.empty() ? "" : " (network " + p.network + ")");
    views[view].push_back(e.rank);
  }
  for (const auto& [view, ranks] : views) {
    const auto& smoke = r.ranks[static_cast<std::size_t>(ranks.front())].smoke;
    out << "  NCCL: " << view << " [ranks " << join_ints(ranks) << "]; smoke allreduce "
        << fixed(smoke.elements * 4.0 / (1 << 20), 0) << " MiB " << (smoke.passed ? "ok" : "FAILED") << ", "
        << fixed(smoke.op_s * 1e3, 3) << " ms (one call; the collectives phase measures bandwidth)\n";
  }
}

}  // namespace

void write_launch(const RunReport& r, std::ostream& out) {
  if (r.ranks.empty()) return;
  write_job_line(r.ranks.front(), r, out);
  write_nccl_paths(r, out);
  if (!r.ranks.front().slurm || shows_nodes(r)) return;  // per rank: the JSON keeps it past a few nodes
  Table t({"rank", "local", "slurm procid", "slurm localid", "slurm gpus", "CUDA_VISIBLE_DEVICES", "gpu"});
  for (const auto& e : r.ranks) {
    const bool trusted = e.slurm && e.slurm->task_ids_trusted;
    t.add_row({std::to_string(e.rank), std::to_string(e.local_rank),
               trusted ? std::to_string(e.slurm->procid) : "-", trusted ? std::to_string(e.slurm->localid) : "-",
               e.slurm ? dash_if_empty(e.slurm->gpus) : "-", variable(e, "CUDA_VISIBLE_DEVICES"),
               e.gpu ? std::to_string(e.gpu->cuda_index) + " " + e.gpu->pci_bus_id : "-"});
  }
  t.write(out);
}

}  // namespace gpuscale::results
