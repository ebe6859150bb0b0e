#pragma once
// How big and how long a run is: `--quick` (a preflight) or the default, each with a stated time
// budget, scaled down on the CPU backend so that CI's default run ends within 2 minutes on 2 cores.
// Phases read their sizes and iteration counts from here instead of hard-coding them; the budget
// feeds the progress line's ETA.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/Backend.hpp"

namespace gpuscale::launch {

struct Profile {
  std::string name;          // "quick" or "default" (+ "-cpu" on the CPU backend)
  double budget_s = 60;      // the whole run should end within this (stated in --help and the report)
  // Collectives: message sizes swept from min to max (factor 2 steps by default).
  std::uint64_t collective_min_bytes = 8;
  std::uint64_t collective_max_bytes = 1ull << 30;
  int warmup_iterations = 5;
  int timed_iterations = 20;
  // Compute: the largest square matmul edge, and a factor applied to the conv/matmul presets' batch.
  int matmul_max_dim = 8192;
  double workload_scale = 1.0;
  // Training: steps per strategy and GPU count, of which the first are warm-up.
  int train_steps = 20;
  int train_warmup_steps = 3;
  // Burn: seconds of sustained GEMM load on every GPU at once (`gpuscale burn` defaults to
  // kBurnCommandSeconds instead), and the GEMM's edge (M = N = K), large enough to fill the chip.
  double burn_s = 4;
  int burn_dim = 8192;
  // Links: pinned host copy sizes, the pageable copies' size (pageable copies run at a tenth of
  // pinned speed on a GPU, so one moderate size says what they can do), each device memory buffer,
  // and timed copies per configuration.
  std::vector<std::uint64_t> link_pinned_bytes = {64ull << 20, 1ull << 30};
  std::uint64_t link_pageable_bytes = 64ull << 20;
  std::uint64_t link_hbm_bytes = 4ull << 30;
  int link_repeats = 5;
};

// `gpuscale burn --burn-s`'s default: long enough for power and temperature to settle.
inline constexpr double kBurnCommandSeconds = 60;

Profile make_profile(bool quick, harness::BackendKind backend);

// "quick-cpu: budget 15 s, collectives 8 B..1 MiB, 3+5 iterations, ..." for the progress log.
std::string describe(const Profile& p);

}  // namespace gpuscale::launch
