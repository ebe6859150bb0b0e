#pragma once
// The compute phase's rules over every rank's records. Pure: records in, checks and marks out.
//   compute-straggler           warning  for each (set, name, shape, precision, pass) measured on several
//                                        GPUs, a rank whose median time exceeds the median over ranks by
//                                        more than the straggler threshold (judge/Stragglers.hpp: records
//                                        of the cpu backend are not compared); marks the record straggler
//   compute-reference-mismatch  error    a failed reference verification
#include <vector>

#include "judge/Rule.hpp"
#include "results/schema/ComputeRecord.hpp"

namespace gpuscale::judge {

Judged compute_checks(const std::vector<results::ComputeRecord>& records, double threshold);

}  // namespace gpuscale::judge
