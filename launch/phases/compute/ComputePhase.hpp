#pragma once
// The compute phase: matmul and conv layers, forward and both backward passes, in every requested
// precision, each checked against the cpu reference and then timed on every rank; rank 0 gathers
// the records, which the judge turns into checks (judge/ComputeChecks.hpp). Collective. The items,
// their timing together and the gather are the compute workload's (workloads/compute/ComputeRun.hpp).
#include <cxxopts.hpp>

#include "launch/Job.hpp"

namespace gpuscale::launch {

// The options of `gpuscale compute` (the phase reads its defaults where a command lacks them).
void add_compute_options(cxxopts::Options& options);

void run_compute_phase(Job& job);

}  // namespace gpuscale::launch
