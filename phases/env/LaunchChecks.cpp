#include "phases/env/LaunchChecks.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"
#include "results/world/SlurmInfo.hpp"

namespace gpuscale::judge {

namespace ids = results::check_ids;
namespace {

using results::Check;
using results::RankEnv;
using results::Severity;
using Checks = std::vector<Check>;

int variable_as_int(const RankEnv& r, const char* name) {
  const auto it = r.variables.find(name);
  if (it == r.variables.end()) return 0;
  try {
    return std::stoi(it->second);
  } catch (...) {
    return 0;
  }
}

void single_rank_world(const RankEnv& r, Checks& out) {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    const int expected = variable_as_int(r, name);
    if (expected <= 1) continue;
    out.push_back({ids::kWorldSizeMismatch, Severity::error, {0},
                   std::string(name) + "=" + std::to_string(expected) +
                       " but MPI sees a world of 1: every rank runs alone. gpuscale was built against another MPI "
                       "than the launcher's, or srun lacks --mpi=pmix; rebuild with the launcher's MPI or fix the launch"});
    return;
  }
  if (variable_as_int(r, "SLURM_NTASKS") > 1)
    out.push_back({ids::kWorldSizeMismatch, Severity::warning, {0},
                   "SLURM_NTASKS=" + r.variables.at("SLURM_NTASKS") +
                       " but this run has one rank: start it with srun --mpi=pmix or mpirun to use the whole allocation"});
}

void world_size(const std::vector<RankEnv>& ranks, Checks& out) {
  const auto& r0 = ranks.front();
  if (ranks.size() == 1) return single_rank_world(r0, out);
  if (!r0.slurm) return;
  const int world = static_cast<int>(ranks.size());
  const int tasks = r0.slurm->tasks;
  if (r0.slurm->task_ids_trusted && tasks > 0 && tasks != world) {
    out.push_back({ids::kWorldSizeMismatch, Severity::error, {},
                   "srun started " + std::to_string(tasks) + " tasks but MPI joined them into a world of " +
                       std::to_string(world) + ": the tasks form separate MPI worlds; check srun --mpi=pmix"});
  } else if (!r0.slurm->task_ids_trusted && tasks > 0 && world > tasks) {
    out.push_back({ids::kWorldSizeMismatch, Severity::warning, {},
                   std::to_string(world) + " ranks in a Slurm job of " + std::to_string(tasks) +
                       " tasks: the ranks oversubscribe the allocation's CPUs; match mpirun -np to the job's tasks"});
  }
}

bool nodes_emulated(const RankEnv& r) { return r.variables.count("GPUSCALE_TEST_RANKS_PER_NODE") > 0; }

std::vector<int> local_sizes_per_node(const std::vector<RankEnv>& ranks) {
  std::map<int, int> sizes;
  for (const auto& r : ranks) sizes[r.node] = r.local_size;
  std::vector<int> out;
  for (const auto& [node, size] : sizes) out.push_back(size);
  return out;
}

// Under srun every rank is a Slurm task: its Slurm ids must be the ones MPI gave it.
void slurm_layout(const std::vector<RankEnv>& ranks, Checks& out) {
  const auto& r0 = ranks.front();
  if (!r0.slurm || !r0.slurm->task_ids_trusted) return;
  std::vector<int> rank_differs, local_differs;
  for (const auto& r : ranks) {
    if (!r.slurm || !r.slurm->task_ids_trusted) continue;
    if (r.slurm->procid != r.rank) rank_differs.push_back(r.rank);
    if (!nodes_emulated(r) && r.slurm->localid != r.local_rank) local_differs.push_back(r.rank);
  }
  if (!rank_differs.empty())
    out.push_back({ids::kSlurmLayoutMismatch, Severity::warning, rank_differs,
                   "MPI rank differs from SLURM_PROCID: the MPI library numbered the srun tasks its own way"});
  if (!local_differs.empty())
    out.push_back({ids::kSlurmLayoutMismatch, Severity::warning, local_differs,
                   "local rank (from MPI's shared-memory split) differs from SLURM_LOCALID: GPUs follow the MPI "
                   "local rank; check that each node runs one srun task per GPU"});
  if (nodes_emulated(r0)) return;
  const int node_count = ranks.front().node_count;
  if (r0.slurm->nodes > 0 && r0.slurm->nodes != node_count)
    out.push_back({ids::kSlurmLayoutMismatch, Severity::warning, {},
                   "Slurm's step spans " + std::to_string(r0.slurm->nodes) + " nodes (" + r0.slurm->node_list +
                       ") but MPI sees " + std::to_string(node_count) + " shared-memory nodes"});
  auto slurm_sizes = results::expand_tasks_per_node(r0.slurm->tasks_per_node);
  auto mpi_sizes = local_sizes_per_node(ranks);
  std::sort(slurm_sizes.begin(), slurm_sizes.end());
  std::sort(mpi_sizes.begin(), mpi_sizes.end());
  if (!slurm_sizes.empty() && slurm_sizes != mpi_sizes)
    out.push_back({ids::kSlurmLayoutMismatch, Severity::warning, {},
                   "Slurm placed tasks per node as " + r0.slurm->tasks_per_node + " but MPI sees " +
                       results::join_ints(mpi_sizes) + " ranks per node"});
}

}  // namespace

void launch_checks(const std::vector<RankEnv>& ranks, Checks& out) {
  if (ranks.empty()) return;
  world_size(ranks, out);
  slurm_layout(ranks, out);
}

}  // namespace gpuscale::judge
