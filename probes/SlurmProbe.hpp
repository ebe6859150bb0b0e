#pragma once
// Slurm's view of a rank, from its SLURM_* variables, and the launch mistakes that can be named
// before MPI starts. Pure functions of the variables (local, no communication), so tests feed them
// the variable sets that srun, salloc + mpirun and sbatch really produce.
#include <optional>
#include <string>
#include <vector>

#include "probes/JobVariables.hpp"
#include "results/world/SlurmInfo.hpp"

namespace gpuscale::probes {

// Whether the process is an srun task (not mpirun's rank inside an allocation, not the batch script).
bool is_srun_task(const Variables& v);

// nullopt outside a Slurm job (no SLURM_JOB_ID).
std::optional<results::SlurmInfo> probe_slurm(const Variables& v);

using results::expand_tasks_per_node;  // results/world/SlurmInfo.hpp: the record's tasks-per-node list

// A launch that cannot form one MPI world, or "" when none is seen: srun started several tasks with
// no PMI of any kind (srun --mpi=none), so the MPI library would abort or run each task alone.
std::string launch_problem(const Variables& v);
// The same, for this process's environment: launch checks it before MPI starts.
std::string launch_problem();

}  // namespace gpuscale::probes
