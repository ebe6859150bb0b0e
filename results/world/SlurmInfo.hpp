#pragma once
// What Slurm told one rank about its job, from the SLURM_* variables (plain data; harness fills it).
// Under mpirun inside an allocation the task variables (SLURM_PROCID, SLURM_LOCALID, SLURM_NODEID)
// belong to the batch script or to mpirun's daemons, not to the rank: they are kept only when the
// rank is an srun task (`task_ids_trusted`).
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct SlurmInfo {
  std::string job_id;
  std::string step_id;              // empty outside an srun step (batch script, mpirun in an allocation)
  std::string job_name, partition, cluster;
  std::string node_list;            // the step's under srun, else the job's
  int nodes = 0;                    // from the same source as node_list
  int tasks = 0;                    // SLURM_STEP_NUM_TASKS under srun, else SLURM_NTASKS
  std::string tasks_per_node;       // Slurm's compressed form: "4", "8(x2),4"
  int cpus_per_task = 0;            // SLURM_CPUS_PER_TASK; 0 when not requested
  int cpus_on_node = 0;             // SLURM_CPUS_ON_NODE
  std::string gpus_per_task;        // as requested (SLURM_GPUS_PER_TASK), else an srun task's GPU count; empty when not known
  std::string gpus_per_node;        // as requested (SLURM_GPUS_PER_NODE); empty when not
  int gpus_on_node = 0;             // SLURM_GPUS_ON_NODE
  std::string gpus;                 // GPU indices Slurm gave this task (SLURM_STEP_GPUS) or job (SLURM_JOB_GPUS)
  std::string mpi_type;             // SLURM_MPI_TYPE: srun --mpi
  bool task_ids_trusted = false;    // this rank is an srun task: the ids below are its own
  int procid = -1, localid = -1, nodeid = -1;  // -1 unless trusted
};

constexpr auto json_fields(const SlurmInfo*) {
  using T = SlurmInfo;
  return fields(field("job_id", &T::job_id), field("step_id", &T::step_id).optional(),
                field("job_name", &T::job_name).optional(), field("partition", &T::partition).optional(),
                field("cluster", &T::cluster).optional(), field("node_list", &T::node_list).optional(),
                field("nodes", &T::nodes).optional(), field("tasks", &T::tasks).optional(),
                field("tasks_per_node", &T::tasks_per_node).optional(),
                field("cpus_per_task", &T::cpus_per_task).optional(),
                field("cpus_on_node", &T::cpus_on_node).optional(),
                field("gpus_per_task", &T::gpus_per_task).optional(),
                field("gpus_per_node", &T::gpus_per_node).optional(),
                field("gpus_on_node", &T::gpus_on_node).optional(), field("gpus", &T::gpus).optional(),
                field("mpi_type", &T::mpi_type).optional(),
                field("task_ids_trusted", &T::task_ids_trusted).optional(), field("procid", &T::procid).optional(),
                field("localid", &T::localid).optional(), field("nodeid", &T::nodeid).optional());
}
// Expands Slurm's compressed tasks-per-node list: "8(x2),4" -> {8, 8, 4}. Empty for malformed text.
std::vector<int> expand_tasks_per_node(const std::string& text);

void to_json(nlohmann::json& j, const SlurmInfo& v);
void from_json(const nlohmann::json& j, SlurmInfo& v);

}  // namespace gpuscale::results
