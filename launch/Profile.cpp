#include "launch/Profile.hpp"

#include "results/Format.hpp"

namespace gpuscale::launch {

Profile make_profile(bool quick, harness::BackendKind backend) {
  const bool cpu = backend == harness::BackendKind::cpu;
  Profile p;
  if (!cpu && quick) {
    p = {"quick", 15, 8, 64ull << 20, 2, 5, 4096, 1.0, 5, 1, 2, 8192};
    p.link_pinned_bytes = {64ull << 20};
    p.link_pageable_bytes = 16ull << 20;
    p.link_hbm_bytes = 1ull << 30;
    p.link_repeats = 3;
  } else if (!cpu) {
    p = {"default", 60, 8, 1ull << 30, 5, 20, 8192, 1.0, 20, 3, 4, 8192};
  } else if (quick) {
    // Host memory and BLAS on shared cores: small enough that 4 oversubscribed ranks stay quick.
    p = {"quick-cpu", 15, 8, 256ull << 10, 1, 3, 256, 1.0 / 16, 2, 1, 0.5, 64};
    p.link_pinned_bytes = {1ull << 20};
    p.link_pageable_bytes = 1ull << 20;
    p.link_hbm_bytes = 4ull << 20;
    p.link_repeats = 2;
  } else {
    p = {"default-cpu", 120, 8, 4ull << 20, 2, 5, 512, 1.0 / 8, 4, 1, 2, 128};
    p.link_pinned_bytes = {1ull << 20, 16ull << 20};
    p.link_pageable_bytes = 4ull << 20;
    p.link_hbm_bytes = 16ull << 20;
    p.link_repeats = 3;
  }
  return p;
}

std::string describe(const Profile& p) {
  return p.name + ": budget " + results::fixed(p.budget_s, 0) + " s, collectives " +
         results::si_compact(static_cast<double>(p.collective_min_bytes)) + "B.." +
         results::si_compact(static_cast<double>(p.collective_max_bytes)) + "B, " +
         std::to_string(p.warmup_iterations) + "+" + std::to_string(p.timed_iterations) + " iterations, matmul <= " +
         std::to_string(p.matmul_max_dim) + ", train " + std::to_string(p.train_steps) + " steps, burn " +
         results::fixed(p.burn_s, 1) + " s";
}

}  // namespace gpuscale::launch
