#pragma once
// The compute phase: matmul and conv layers, forward and both backward passes, in every requested
// precision, each checked against the cpu reference and then timed on every rank. Collective: rank 0
// returns every rank's records, which the judge turns into checks (phases/compute/ComputeChecks.hpp), the other
// ranks none. The items, their timing together and the gather are the compute workload's
// (workloads/compute/ComputeRun.hpp).
#include <vector>

#include <cxxopts.hpp>

#include "launch/base/PhaseContext.hpp"
#include "phases/compute/ComputeRecord.hpp"

namespace gpuscale::launch {

// The options of `gpuscale compute` (the phase reads its defaults where a command lacks them).
void add_compute_options(cxxopts::Options& options);

std::vector<results::ComputeRecord> run_compute_phase(PhaseContext& ctx);

}  // namespace gpuscale::launch
