#pragma once
// The training phase's rules. Pure: records in, checks and marks out.
//   train-straggler   warning  a rank whose median step exceeds the median rank's by more than the
//                              straggler threshold and by 50 us (tens of microseconds of jitter on a tiny
//                              step are no straggler); marks the rank. Not judged on the cpu backend,
//                              whose ranks share cores.
//   train-<check>     error    a failed gradient or equivalence verification (TrainVerification)
#include "judge/Rule.hpp"
#include "results/schema/TrainRecord.hpp"

namespace gpuscale::judge {

Judged train_checks(const results::TrainResults& results, double straggler_threshold);

}  // namespace gpuscale::judge
