#pragma once
// The rules that turn burn records into findings. Pure (no MPI, no CUDA); rank 0 calls them on every
// rank's record.
//   gpu-slow-sustained    warning  sustained TFLOP/s below the median of the GPUs of its kind by more
//                                  than the straggler threshold (an --expect floor on the figure
//                                  burn/sustained_tflops fails the verdict instead)
//   gpu-thermal-throttle  warning  a thermal slowdown reason (software or hardware) was active
//   gpu-hw-slowdown       error    hardware slowdown or the power brake was active
//   gpu-errors-under-load          ECC errors that appeared during the burn: uncorrected error,
//                                  corrected warning
//   gpu-wrong-result      error    the GEMM's output differs from the majority of the GPUs that ran the
//                                  same algorithm on the same inputs, or changed during the burn
//   burn-telemetry-unavailable info  no NVML samples, said once with the reason
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "judge/base/Judged.hpp"
#include "judge/base/PhaseRulesOf.hpp"
#include "phases/burn/BurnRecord.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::judge {

// The marks burn's rules set on its records, whichever family raises them (phases/burn/BurnRecord.hpp).
using results::BurnMark;

// The majority rule of the output comparison. majority: the hash more than half of `hashes` hold
// (empty when none does: tie). dissenters: the indices whose hash differs from it (with a tie,
// every index).
struct HashVote {
  std::string majority;
  std::vector<std::size_t> dissenters;
  bool tie = false;
};
HashVote vote_hashes(const std::vector<std::string>& hashes);

// The checks, and the marks slow and wrong_result. `straggler_threshold` as in compute (0.10 = 10%).
// Records of the cpu backend, and those `marks` say were measured beside another process, are not
// compared for speed.
Judged burn_checks(const std::vector<results::BurnRecord>& records, double straggler_threshold,
                   const RecordMarks& marks = RecordMarks());

// Burn's rules, which the judge reads through its table (judge/PhaseRules.hpp).
namespace phases::burn {
using Records = std::vector<results::BurnRecord>;
extern const PhaseRulesOf<Records> kRules;
}  // namespace phases::burn

}  // namespace gpuscale::judge
