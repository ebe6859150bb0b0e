#pragma once
// The training phase: the job's timeout, shape, budget and progress handed to the training workload
// (workloads/TrainRun.hpp: checks, then single, DDP and DP configurations, gathered to rank 0); rank 0
// then derives efficiency and stragglers, turns failed checks into errors and stores the records.
// Collective.

#include "launch/Job.hpp"

namespace gpuscale::launch {

void run_train_phase(Job& job);

}  // namespace gpuscale::launch
