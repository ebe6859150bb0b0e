#pragma once
// The burn phase: every GPU of the job runs its GEMM flat out for the burn's seconds, all starting
// together after a barrier, while a thread samples its telemetry; then the output hashes are compared
// across the job. Rank 0 gathers a record per rank and adds the burn checks. Collective.
#include "launch/Job.hpp"

namespace gpuscale::launch {

void run_burn_phase(Job& job);

}  // namespace gpuscale::launch
