#pragma once
// The plan's values that only the job's shape can judge, known once MPI runs: -r (the root of
// broadcast and reduce), --gpus (DDP rank counts), --dp-devices and --isolate. A value the job
// cannot take is bad input, not a measurement to skip: the Job raises it as a UsageError on every
// rank alike before any work or output (exit 2).
#include <string>

#include "launch/base/JobShape.hpp"
#include "launch/base/RunPlan.hpp"

namespace gpuscale::launch {

// "" when every value fits the job; else one line that names the first value that does not and the
// job's shape: each planned phase's PhaseSpec::misfit, in the table's order. Pure.
std::string plan_misfit(const RunPlan& plan, const JobShape& shape);

}  // namespace gpuscale::launch
