#pragma once
// Timing of training steps with device events: warm-up (steps, then time: settle_for), the caller's
// barrier, then `iterations` steps enqueued back to back with an event pair around each (no host sync
// between steps), read after the last. The same counts on every rank. Raw samples in seconds.
#include <functional>
#include <vector>

#include "harness/Deadline.hpp"
#include "phases/train/TrainRecord.hpp"
#include "workloads/WarmUp.hpp"
#include "workloads/train/DdpTrainer.hpp"
#include "workloads/train/DpTrainer.hpp"

namespace gpuscale::workloads {

struct TimingOptions {
  int warmup = 5;
  int iterations = 20;
  // Then steps until this long has run (settle_for), so the GPU settles under its power limit as a
  // training job does; 0: none.
  double warmup_s = 0;
  bool parts = true;                   // also time compute-only steps and the allreduces alone
  std::function<void()> before_timing;  // the barrier of every rank that times together; may be empty
  // The ranks that time together agree on a step count (each passes its own, all get the largest);
  // empty: this rank alone.
  std::function<int(int)> agree_steps;
};

// The time-based warm-up (keep_busy_for): steps until o.warmup_s has run, the ranks' largest count
// through o.agree_steps. Returns the steps run. Trainer: DdpTrainer or DpTrainer. Here and below,
// timeout_s bounds each wait (the caller's: launch's phase --timeout).
template <class Trainer>
int settle_for(Trainer& trainer, const TimingOptions& o, double timeout_s) {
  if (o.warmup_s <= 0) return 0;
  return keep_busy_for(
      o.warmup_s, timeout_s, [&] { trainer.step(); },
      [&](double wait_s) { trainer.synchronize(harness::Deadline::after(wait_s)); }, o.agree_steps);
}

struct RankTiming {
  std::vector<double> step_s, compute_s, comm_s;  // compute_s/comm_s empty when not measured
};

// DDP or single (a trainer without communicator: comm_s stays empty). Collective over the trainer's
// communicator.
RankTiming time_ddp(DdpTrainer& trainer, harness::Backend& backend, const TimingOptions& options, double timeout_s);

struct DpTiming {
  std::vector<double> step_s;
  results::DpPhases phases;  // medians
};
DpTiming time_dp(DpTrainer& trainer, const TimingOptions& options, double timeout_s);

// Trace spans of one more step (layer passes and bucket allreduces), seconds from its first event.
std::vector<results::TraceSpan> trace_ddp_step(DdpTrainer& trainer, int rank, const std::string& config,
                                               double timeout_s);

}  // namespace gpuscale::workloads
