#pragma once
// The training phase: the job's timeout, shape, budget and progress handed to the training workload
// (workloads/train/TrainRun.hpp: checks, then single, DDP and DP configurations, gathered to rank 0); rank 0
// then derives efficiency and stragglers and turns failed checks into errors. Collective.
#include <vector>

#include "launch/base/PhaseContext.hpp"
#include "phases/train/TraceSpan.hpp"
#include "phases/train/TrainRecord.hpp"

namespace gpuscale::launch {

struct TrainOutcome {
  results::TrainResults results;                // rank 0: every configuration's record and the checks'
  std::vector<results::TraceSpan> trace_spans;  // rank 0, with --trace: a few steps per rank
};

// The other ranks return an empty outcome.
TrainOutcome run_train_phase(PhaseContext& ctx);

}  // namespace gpuscale::launch
