#pragma once
// Cross-checks of what the launcher (mpirun, srun, Slurm's allocation) says against what MPI sees:
// world size, ranks, local ranks, nodes and tasks per node. Pure: part of run_env_checks.
#include <vector>

#include "results/base/Check.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// Appends world-size-mismatch (error, or warning where the allocation is merely not used fully) and
// slurm-layout-mismatch (warning) findings.
void launch_checks(const std::vector<results::RankEnv>& ranks, std::vector<results::Check>& out);

}  // namespace gpuscale::judge
