#pragma once
// What a workload's run across the job (workloads/train/TrainRun.hpp,
// workloads/compute/ComputeRun.hpp, collectives/CollectivesRun.hpp) tells the job around it, without printing: progress steps, the run's
// clock, and its budget. Launch fills it in from its Job (run_hooks, launch/Job.hpp).
#include <functional>
#include <string>

#include "harness/BudgetGate.hpp"

namespace gpuscale::harness {

struct RunHooks {
  BudgetGate budget;  // the phase's share of the run's budget; unbounded: everything runs
  // Local, every one set: a step for the progress line; seconds since the run started (rank 0's
  // clock on rank 0); an item took seconds, and what the spent budget dropped (both noted by rank 0).
  std::function<void(const std::string&)> progress;
  std::function<double()> elapsed_s;
  std::function<void(const std::string&, double)> budget_item;
  std::function<void(const std::string&)> budget_dropped;
};

}  // namespace gpuscale::harness
