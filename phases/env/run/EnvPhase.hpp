#pragma once
// The environment phase: every rank probes itself, rank 0 gathers the records and judges them by the
// env rule family (PhaseContext::env_gathered), every rank learns whether GPU work may run, then every
// rank runs the verified smoke allreduce (skipped where ranks share a GPU) and rank 0 adds each
// rank's outcome to its record. Collective.
#include <string>
#include <vector>

#include "launch/base/PhaseContext.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::launch {

struct EnvOutcome {
  std::vector<results::RankEnv> ranks;  // rank 0: every rank's record with its smoke allreduce; others: none
  results::RankEnv own;                 // every rank: its own record, whose processes the tenancy checks know
  // Every rank alike (Job::block_gpu_work): why GPU work beside another process, and why any GPU work,
  // must not run; empty: nothing blocks it.
  std::string gpu_work_blocked;
  std::string gpu_work_impossible;
};

EnvOutcome run_env_phase(PhaseContext& ctx);

}  // namespace gpuscale::launch
