#pragma once
// Timing of training steps with device events: warm-up, the caller's barrier, then `iterations`
// steps enqueued back to back with an event pair around each (no host sync between steps), read
// after the last. The same counts on every rank. Raw samples in seconds.
#include <functional>
#include <vector>

#include "results/TrainRecord.hpp"
#include "workloads/DdpTrainer.hpp"
#include "workloads/DpTrainer.hpp"

namespace gpuscale::workloads {

struct TimingOptions {
  int warmup = 5;
  int iterations = 20;
  double timeout_s = 120;
  bool parts = true;                   // also time compute-only steps and the allreduces alone
  std::function<void()> before_timing;  // the barrier of every rank that times together; may be empty
};

struct RankTiming {
  std::vector<double> step_s, compute_s, comm_s;  // compute_s/comm_s empty when not measured
};

// DDP or single (a trainer without communicator: comm_s stays empty). Collective over the trainer's
// communicator.
RankTiming time_ddp(DdpTrainer& trainer, harness::Backend& backend, const TimingOptions& options);

struct DpTiming {
  std::vector<double> step_s;
  results::DpPhases phases;  // medians
};
DpTiming time_dp(DpTrainer& trainer, const TimingOptions& options);

// Trace spans of one more step (layer passes and bucket allreduces), seconds from its first event.
std::vector<results::TraceSpan> trace_ddp_step(DdpTrainer& trainer, int rank, const std::string& config,
                                               double timeout_s);

}  // namespace gpuscale::workloads
