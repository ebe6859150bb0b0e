#pragma once
// The burn phase: every GPU of the job runs its GEMM flat out for the burn's seconds, all starting
// together after a barrier, while a thread samples its telemetry; then the output hashes are compared
// across the job. Collective: rank 0 returns a record per rank (index = rank), the other ranks none.
#include <vector>

#include "launch/base/PhaseContext.hpp"
#include "phases/burn/BurnRecord.hpp"

namespace gpuscale::launch {

std::vector<results::BurnRecord> run_burn_phase(PhaseContext& ctx);

}  // namespace gpuscale::launch
