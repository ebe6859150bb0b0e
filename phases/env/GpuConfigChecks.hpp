#pragma once
// GPU configuration rules over every rank's env record: the settings DCGM's deployment checks look
// at, as NVML read them (a setting NVML does not support is absent and judged by nothing). Pure: rank 0
// runs them beside the other env checks, and unit tests feed them synthetic records.
//   row-remap-pending     warning  a row remap waits for a GPU reset
//   row-remap-failed      error    a row remap failed: the GPU needs replacing
//   ecc-disabled          warning  ECC is supported but off
//   mig-enabled           error    MIG mode is on: the job gets a slice of the GPU, not the GPU
//   power-limit-lowered   warning  the power limit is below the limit the GPU boots with
//   power-limit-mismatch  warning  the job's GPUs of one model run at different power limits
//   clocks-lowered        warning  application clocks below their default, or NVML's clock event
//                                  reason "applications clocks setting" active (clocks held low)
//   persistence-off       info     persistence mode off: each job pays the driver's start-up
#include <cstdint>
#include <vector>

#include "results/base/Check.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// NVML's clock event reason "applications clocks setting" (nvmlClocksEventReasonApplicationsClocksSetting).
inline constexpr std::uint64_t kClockEventApplicationsClocks = 0x2;

void gpu_config_checks(const std::vector<results::RankEnv>& ranks, std::vector<results::Check>& out);

}  // namespace gpuscale::judge
