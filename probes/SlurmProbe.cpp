#include "probes/SlurmProbe.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>


extern char** environ;

namespace gpuscale::probes {
namespace {

std::string get(const Variables& v, const char* name) {
  const auto it = v.find(name);
  return it == v.end() ? "" : it->second;
}

int get_int(const Variables& v, const char* name, int fallback = 0) {
  const std::string text = get(v, name);
  if (text.empty()) return fallback;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  return *end == '\0' ? static_cast<int>(value) : fallback;
}

// The first of the names that is set.
std::string first_of(const Variables& v, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (v.count(name)) return v.at(name);
  return "";
}

}  // namespace

bool is_srun_task(const Variables& v) {
  // mpirun's ranks inherit SLURM_STEP_ID from its daemons' step, but carry OMPI_COMM_WORLD_RANK.
  return (v.count("SLURM_STEP_ID") || v.count("SLURM_STEPID")) && !v.count("OMPI_COMM_WORLD_RANK");
}

std::optional<results::SlurmInfo> probe_slurm(const Variables& v) {
  if (!v.count("SLURM_JOB_ID") && !v.count("SLURM_JOBID")) return std::nullopt;
  results::SlurmInfo s;
  const bool task = is_srun_task(v);
  s.job_id = first_of(v, {"SLURM_JOB_ID", "SLURM_JOBID"});
  s.job_name = get(v, "SLURM_JOB_NAME");
  s.partition = get(v, "SLURM_JOB_PARTITION");
  s.cluster = get(v, "SLURM_CLUSTER_NAME");
  if (task) {
    s.step_id = first_of(v, {"SLURM_STEP_ID", "SLURM_STEPID"});
    s.node_list = get(v, "SLURM_STEP_NODELIST");
    s.nodes = get_int(v, "SLURM_STEP_NUM_NODES");
    s.tasks = get_int(v, "SLURM_STEP_NUM_TASKS");
    s.tasks_per_node = get(v, "SLURM_STEP_TASKS_PER_NODE");
    s.gpus = get(v, "SLURM_STEP_GPUS");
    s.task_ids_trusted = true;
    s.procid = get_int(v, "SLURM_PROCID", -1);
    s.localid = get_int(v, "SLURM_LOCALID", -1);
    s.nodeid = get_int(v, "SLURM_NODEID", -1);
  } else {
    s.node_list = first_of(v, {"SLURM_JOB_NODELIST", "SLURM_NODELIST"});
    s.nodes = get_int(v, "SLURM_JOB_NUM_NODES", get_int(v, "SLURM_NNODES"));
    s.tasks = get_int(v, "SLURM_NTASKS", get_int(v, "SLURM_NPROCS"));
    s.tasks_per_node = get(v, "SLURM_TASKS_PER_NODE");
    s.gpus = get(v, "SLURM_JOB_GPUS");
  }
  s.cpus_per_task = get_int(v, "SLURM_CPUS_PER_TASK");
  s.cpus_on_node = get_int(v, "SLURM_CPUS_ON_NODE");
  s.gpus_per_task = get(v, "SLURM_GPUS_PER_TASK");
  // srun does not pass --gpus-per-task on to its tasks; the GPUs it gave this task say it.
  if (s.gpus_per_task.empty() && task && !s.gpus.empty())
    s.gpus_per_task = std::to_string(1 + std::count(s.gpus.begin(), s.gpus.end(), ','));
  s.gpus_per_node = get(v, "SLURM_GPUS_PER_NODE");
  s.gpus_on_node = get_int(v, "SLURM_GPUS_ON_NODE");
  s.mpi_type = get(v, "SLURM_MPI_TYPE");
  return s;
}

std::string launch_problem(const Variables& v) {
  if (!is_srun_task(v) || get_int(v, "SLURM_STEP_NUM_TASKS") <= 1) return "";
  if (v.count("PMIX_RANK") || v.count("PMI_RANK") || v.count("PMI_FD")) return "";
  const std::string mpi = get(v, "SLURM_MPI_TYPE");
  return "srun started " + get(v, "SLURM_STEP_NUM_TASKS") + " tasks without PMI (--mpi=" +
         (mpi.empty() ? "none" : mpi) +
         "), so they cannot form one MPI world: launch with srun --mpi=pmix (see srun --mpi=list)";
}

std::string launch_problem() { return launch_problem(allow_listed_variables(environ)); }

}  // namespace gpuscale::probes
