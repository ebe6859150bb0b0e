#pragma once
// `gpuscale baseline RUN.json... -o BASE.json`: the median and spread of every figure over saved runs
// (results/report/Baseline.hpp), written atomically for --baseline to judge later runs by. No MPI.
#include "launch/base/Invocation.hpp"

namespace gpuscale::launch {

// Returns 0 once BASE.json is written. Bad usage, an unreadable or incomplete run, or runs that mix
// GPU models throw harness::UsageError (one line, exit 2) before anything is written.
int make_baseline(const Invocation& invocation);

}  // namespace gpuscale::launch
