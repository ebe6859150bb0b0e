#pragma once
// Checks of the transport NCCL chose in the smoke allreduce (NcclPaths, from NCCL's log). Pure: part
// of run_env_checks.
#include <vector>

#include "results/base/Check.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// nccl-socket-transport (warning): NCCL connects hosts over TCP sockets, not InfiniBand/RoCE.
// nccl-node-mismatch (warning): NCCL counts other nodes than MPI (e.g. NCCL_HOSTID differs on one host).
void nccl_path_checks(const std::vector<results::RankEnv>& ranks, std::vector<results::Check>& out);

}  // namespace gpuscale::judge
