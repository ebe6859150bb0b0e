#pragma once
// The environment phase: every rank probes itself, rank 0 gathers the records and runs the checks,
// then every rank runs the verified smoke allreduce (skipped where ranks share a GPU) and rank 0
// records the outcome. Collective.
#include "launch/Job.hpp"

namespace gpuscale::launch {

void run_env_phase(Job& job);

}  // namespace gpuscale::launch
