#pragma once
// The compute phase's rules over every rank's records. Pure: records in, checks and marks out.
//   compute-straggler           warning  for each (set, name, shape, precision, pass) measured on several
//                                        GPUs, a rank whose median time exceeds the median over ranks by
//                                        more than the straggler threshold (judge/base/Stragglers.hpp: records
//                                        of the cpu backend are not compared); marks the record straggler
//   compute-reference-mismatch  error    a failed reference verification
#include <string_view>
#include <vector>

#include "judge/base/Judged.hpp"
#include "judge/base/PhaseRulesOf.hpp"
#include "phases/compute/ComputeRecord.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::judge {

// The marks compute's rules set on its records, whichever family raises them
// (phases/compute/ComputeRecord.hpp).
using results::ComputeMark;

// The checks, and the mark straggler; records `marks` says were measured beside another process are
// not compared.
Judged compute_checks(const std::vector<results::ComputeRecord>& records, double threshold,
                      const RecordMarks& marks = RecordMarks());

// Compute's rules, which the judge reads through its table (judge/PhaseRules.hpp).
namespace phases::compute {
using Records = std::vector<results::ComputeRecord>;
extern const PhaseRulesOf<Records> kRules;
}  // namespace phases::compute

}  // namespace gpuscale::judge
