#pragma once
// The training workload across the job, as TrainBench is one rank's: for each model and precision the
// correctness checks (before timing), then single (every rank alone), DDP over the plan's rank counts
// (sub-communicators) and DP over 1..G devices of rank 0, weak and/or strong scaling, each
// configuration gathered to rank 0 while the budget lasts. Collective: every rank calls it with the
// same plan. Prints nothing: progress and budget notes go to the caller through TrainRunSetup.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/Backend.hpp"
#include "harness/RunHooks.hpp"
#include "harness/World.hpp"
#include "phases/train/TraceSpan.hpp"
#include "phases/train/TrainRecord.hpp"
#include "results/schema/RunReport.hpp"
#include "workloads/train/DdpTrainer.hpp"
#include "workloads/train/Model.hpp"
#include "workloads/train/TrainBench.hpp"
#include "workloads/train/TrainTiming.hpp"

namespace gpuscale::workloads {

// What the training workload runs (phases/train/run/TrainPlan.cpp reads it from the command line).
struct TrainPlan {
  std::vector<std::string> models;
  std::vector<Precision> precisions;
  bool single = true, dp = true, ddp = true;
  std::optional<int> depth, width;    // unset: the preset's
  std::optional<std::int64_t> batch;  // per GPU; unset: the preset's
  bool weak = true, strong = false;
  std::vector<int> ddp_sizes;     // rank counts; empty: 1, 2, 4, ... up to the world size (and the world size)
  std::optional<int> dp_devices;  // unset: every visible GPU (cpu: the ranks of the node, at least 2)
  DdpOptions ddp_options;
  // cuDNN algorithms found by timing (cudnnFind, like torch.backends.cudnn.benchmark = True).
  TuningOptions tuning{AlgoSearch::exhaustive};
  std::vector<harness::StreamPriority> comm_priorities;  // each is measured at the largest DDP size
  // DDP communicators: thread blocks per collective asked of NCCL; 0: NCCL's choice. With
  // comm_ctas_auto, each DDP configuration over 2+ ranks times steps on both NCCL's choice and
  // kTunedCommCtas and keeps the faster (as cudnn.benchmark picks algorithms), comm_ctas unused.
  int comm_ctas = 0;
  bool comm_ctas_auto = true;
  TimingOptions timing;
  bool check = true;
  std::int64_t check_batch = 2;  // samples per rank in the correctness checks
  bool essential_checks_only = false;  // only the gradient checks that matter most (a short preflight)
};

// What the run needs from the job around it.
struct TrainRunSetup {
  harness::World& world;
  harness::Backend& backend;  // this rank's device; made current again after DP's devices
  unsigned long long seed = 1;
  int dp_visible = 0;                  // rank 0: the devices DP may drive (plan.dp_devices is at most this)
  std::vector<results::TraceSpan>* trace = nullptr;  // rank 0 collects spans here; null: no trace
  harness::RunHooks hooks;                           // progress and budget
};

// Collective. Rank 0 returns every configuration's record and the checks' outcomes, in run order;
// the other ranks return nothing. plan.ddp_sizes must be set and at most the world size. timeout_s
// bounds any single wait (the caller's: launch's phase --timeout).
results::TrainResults run_training(const TrainPlan& plan, TrainRunSetup& setup, double timeout_s);

}  // namespace gpuscale::workloads
