#pragma once
// How long any single wait may take, per phase: `--timeout S` (every phase) or
// `--timeout PHASE=S,...` (those phases; items apply left to right, so "60,train=600" works).
// Pure parsing; bad input is a harness::UsageError with one line.
#include <string>
#include <string_view>

namespace gpuscale::launch {

// Seconds per wait. The defaults, and why (worst plausible case each must fit, with margin):
//   env 120:         MPI_Init and NCCL init of thousands of ranks, CUDA context creation (~10-60 s)
//   compute 300:     cuDNN's exhaustive algorithm search of a large conv times every algorithm
//                    (seconds each, several directions) before the first timed wait returns
//   collectives 180: one wait covers 20 iterations of a 1 GiB allreduce; over NCCL sockets on
//                    10 GbE (~1.2 GB/s, 2 GiB moved per op) that is ~40 s
//   train 300:       the first step tunes every layer (resnet50: 53 convs x 3 directions), and
//                    DP-style drives every GPU of a node from one process
//   burn 120:        a wait covers one queue of GEMM batches (a fraction of a second) or the barrier
//                    and gather around the burn, whose length --burn-s sets apart
//   links 120:       a turn's barrier waits for one GPU's copies (about a second by default; a
//                    pageable copy of several GiB at ~1 GB/s on a loaded host is tens of seconds)
// The longest wait --timeout accepts: a week, past any real phase, and far inside what a deadline
// in clock ticks can hold (1e300 s would overflow it).
constexpr double kMaxTimeoutS = 7 * 24 * 3600;

struct PhaseTimeouts {
  double env_s = 120;
  double compute_s = 300;
  double collectives_s = 180;
  double train_s = 300;
  double burn_s = 120;
  double links_s = 120;

  // The phase's timeout; anything outside the phases (start-up, finish) is bootstrap: env.
  double for_phase(std::string_view phase) const;
};

// "S" or "PHASE=S" items, comma-separated, over the defaults. Throws UsageError naming the item.
PhaseTimeouts parse_timeouts(const std::string& text);
// "env 120, compute 300, collectives 180, train 300, burn 120, links 120": for --help and messages.
std::string describe(const PhaseTimeouts& timeouts);

}  // namespace gpuscale::launch
