#pragma once
// Timing of training steps with device events: warm-up (steps, then time: settle_for), the caller's
// barrier, then `iterations` steps enqueued back to back with an event pair around each (no host sync
// between steps), read after the last. The same counts on every rank. Raw samples in seconds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include "results/TrainRecord.hpp"
#include "workloads/DdpTrainer.hpp"
#include "workloads/DpTrainer.hpp"

namespace gpuscale::workloads {

struct TimingOptions {
  int warmup = 5;
  int iterations = 20;
  // Then steps until this long has run (settle_for), so the GPU settles under its power limit as a
  // training job does; 0: none.
  double warmup_s = 0;
  double timeout_s = 120;
  bool parts = true;                   // also time compute-only steps and the allreduces alone
  std::function<void()> before_timing;  // the barrier of every rank that times together; may be empty
  // The ranks that time together agree on a step count (each passes its own, all get the largest);
  // empty: this rank alone.
  std::function<int(int)> agree_steps;
};

// The time-based warm-up: one step timed on the host, then as many more as fill o.warmup_s (the
// ranks' largest count, through o.agree_steps), enqueued back to back so that no idle gap lets the
// clocks recover, and waited for once. Returns the steps run. Trainer: DdpTrainer or DpTrainer.
template <class Trainer>
int settle_for(Trainer& trainer, const TimingOptions& o) {
  if (o.warmup_s <= 0) return 0;
  const auto start = std::chrono::steady_clock::now();
  trainer.step();
  trainer.synchronize(harness::Deadline::after(o.timeout_s));
  const double once_s = std::max(1e-6, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  int more = static_cast<int>(std::clamp(std::ceil((o.warmup_s - once_s) / once_s), 0.0, 1e5));
  if (o.agree_steps) more = o.agree_steps(more);
  for (int i = 0; i < more; ++i) trainer.step();
  trainer.synchronize(harness::Deadline::after(o.timeout_s + o.warmup_s));
  return 1 + more;
}

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
