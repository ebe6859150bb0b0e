#pragma once
// The rules that turn links records into findings. Pure (no MPI, no CUDA); rank 0 calls them on every
// rank's record. Records of the cpu backend are not judged for speed (no PCIe, shared cores).
//   h2d-slow          warning  pinned H2D or D2H (largest size, GPU alone on its node) below the median
//                              of its node's GPUs of the same model by more than the threshold
//   hbm-slow          warning  the device copy below the median of the job's GPUs of the same model by
//                              more than the threshold
// (Below the model's floor, whatever the other GPUs do, both are errors: judge/FloorChecks.hpp.)
//   pcie-downtrained  warning  the link under load ran below its maximum generation or width
//   nvlink-down       error    an NVLink inactive while others of the GPU are active, or one that went
//                              down during the phase
//   nvlink-errors              NVLink error counters grew during the phase: recovery error, CRC or
//                              replay warning
//   gpu-xid           error    the driver reported an XID event for the GPU during the phase
//   links-unreadable  info     a counter or event source NVML would not give, said once per reason
#include <string_view>
#include <vector>

#include "judge/base/Judged.hpp"
#include "judge/base/PhaseRulesOf.hpp"
#include "phases/links/LinksRecord.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::judge {

// The marks links's rules set on its records, whichever family raises them (phases/links/LinksRecord.hpp).
using results::LinksMark;

// The checks, and the marks h2d_slow and hbm_slow. `straggler_threshold` as in compute and burn (0.10 =
// 10% below the median); records `marks` says were measured beside another process are not compared.
Judged links_checks(const std::vector<results::LinksRecord>& records, double straggler_threshold,
                    const RecordMarks& marks = RecordMarks());

// Links's rules, which the judge reads through its table (judge/PhaseRules.hpp).
namespace phases::links {
using Records = std::vector<results::LinksRecord>;
extern const PhaseRulesOf<Records> kRules;
}  // namespace phases::links

}  // namespace gpuscale::judge
