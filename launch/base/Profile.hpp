#pragma once
// How big and how long a run is: `--quick` (a preflight) or the default, each with a stated time
// budget, scaled down on the CPU backend so that CI's default run ends within 2 minutes on 2 cores.
// The one table of every default that depends on --quick or the backend: the plans
// (CollectivesOptions.cpp, ComputePlan.cpp, TrainPlan.cpp) start from it, the help text prints it
// (profile_default_text), and the start-up line prints the plans resolved from it (RunPlan.hpp).
// Defaults that no profile changes stay in the plan structs' initialisers.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/Backend.hpp"

namespace gpuscale::launch {

struct CollectivesProfile {
  std::uint64_t max_bytes = 0;    // -e; sizes from -b's default, times step_factor, while <= this
  std::uint64_t step_factor = 0;  // -f
  int warmup = 0, iterations = 0;  // -w, -n
  std::vector<std::uint64_t> scaling_sizes;  // --scaling-sizes; empty: no scaling table
  std::uint64_t pair_large_bytes = 0;        // --pair-bytes
  std::uint64_t isolation_bytes = 0;         // --isolate-bytes
};

struct ComputeProfile {
  std::string precisions;  // --precision
  std::string shape_sets;  // --shapes, when neither --mnk nor --conv is given
  int warmup = 0, iterations = 0;  // calls per pass: --warmup, --iters
};

struct TrainProfile {
  std::string models, precisions;  // --model, --precision
  int warmup = 0, iterations = 0;  // steps: --warmup, --iters
  // Unset: the model preset's. Set on the CPU backend, where the presets would take minutes per step.
  std::optional<int> depth, width, batch;
  std::string comm_ctas;  // --comm-ctas of `gpuscale train` ("auto" or a count)
  bool essential_checks_only = false;  // TrainPlan::essential_checks_only
};

// The whole-job run's short burn (`gpuscale burn` runs kBurnCommandSeconds unless --burn-s says).
struct BurnProfile {
  double seconds = 0;  // of sustained GEMM load on every GPU at once
  int dim = 0;         // the GEMM's edge (M = N = K), large enough to fill the chip
};

// The links phase's copies (`gpuscale links` and the whole-job run alike).
struct LinksProfile {
  std::vector<std::uint64_t> pinned_bytes;  // --sizes
  // --pageable-size: pageable copies run at a tenth of pinned speed on a GPU, so one moderate size
  // says what they can do.
  std::uint64_t pageable_bytes = 0;
  std::uint64_t hbm_bytes = 0;  // --hbm-size: each device memory buffer of the copy and triad
  int repeats = 0;              // --repeats: timed copies per configuration
};

// `gpuscale burn --burn-s`'s default: long enough for power and temperature to settle.
inline constexpr double kBurnCommandSeconds = 60;

struct Profile {
  std::string name;      // "quick" or "default" (+ "-cpu" on the CPU backend)
  double budget_s = 60;  // the whole run should end within this (stated in --help; the progress ETA)
  CollectivesProfile collectives;
  ComputeProfile compute;
  TrainProfile train;
  BurnProfile burn;
  LinksProfile links;
};

Profile make_profile(bool quick, bool cpu_backend);
inline Profile make_profile(bool quick, harness::BackendKind backend) {
  return make_profile(quick, backend == harness::BackendKind::cpu);
}

// Help text of one profile-dependent default: "20; 5 with --quick; 3 on cpu" -- the default GPU run's
// value, then each other profile's where it differs, read from the same table the plans start from.
std::string profile_default_text(const std::function<std::string(const Profile&)>& value_of);

// A byte count in the size syntax that the options accept, "8", "64K", "1G" (harness/SizeParse.hpp).
std::string size_text(std::uint64_t bytes);
std::string size_list_text(const std::vector<std::uint64_t>& sizes);  // "8,1M,64M"; "none" when empty

}  // namespace gpuscale::launch
