#pragma once
// The compute workload across the job, as run_compute_item is one rank's: every shape and precision
// of the plan on every rank, timed together (a barrier before each item's timing, the ranks agreeing
// on each pass's call count) while the budget lasts, then gathered to rank 0. Prints nothing:
// progress and budget notes go to the caller through ComputeRunSetup.
#include <string>
#include <vector>

#include "harness/Backend.hpp"
#include "harness/RunHooks.hpp"
#include "harness/World.hpp"
#include "phases/compute/ComputeRecord.hpp"
#include "results/schema/RunReport.hpp"
#include "workloads/compute/ComputeBench.hpp"
#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

struct ComputeItem {
  NamedShape shape;
  Precision precision;
};

// What the compute workload measures (phases/compute/run/ComputePlan.cpp reads it from the command line).
struct ComputePlan {
  std::vector<ComputeItem> items;  // shape-major: every precision of a shape, then the next shape
  TuningOptions tuning;
  BenchOptions bench;  // rank, gpu, barrier and the ranks' agreement are filled in by run_compute
};

// What the run needs from the job around it.
struct ComputeRunSetup {
  harness::World& world;
  harness::Backend& backend;
  harness::RunHooks hooks;  // progress and budget
};

// Collective: every rank calls it with the same plan. The first item always runs (so the phase has a
// figure); later ones while the budget lasts. Rank 0 returns every rank's records, interleaved so
// that one measurement's ranks are adjacent; the other ranks return nothing. timeout_s bounds any
// single wait, between the ranks and on the device (the caller's: launch's phase --timeout).
std::vector<results::ComputeRecord> run_compute(ComputePlan plan, ComputeRunSetup& setup, double timeout_s);

}  // namespace gpuscale::workloads
