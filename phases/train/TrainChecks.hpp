#pragma once
// The training phase's rules. Pure: records in, checks and marks out.
//   train-straggler   warning  a rank whose median step exceeds the median rank's by more than the
//                              straggler threshold and by 50 us (tens of microseconds of jitter on a tiny
//                              step are no straggler); marks the rank. Not judged on the cpu backend,
//                              whose ranks share cores.
//   train-<check>     error    a failed gradient or equivalence verification (TrainVerification)
#include <string_view>

#include "judge/base/Judged.hpp"
#include "judge/base/PhaseRulesOf.hpp"
#include "phases/train/TrainRecord.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::judge {

// The marks train's rules set on its records, whichever family raises them (phases/train/TrainRecord.hpp).
using results::TrainMark;

// The checks, and the mark straggler; a configuration `marks` says ran beside another process is not
// compared.
Judged train_checks(const results::TrainResults& results, double straggler_threshold,
                    const RecordMarks& marks = RecordMarks());

// Train's rules, which the judge reads through its table (judge/PhaseRules.hpp).
namespace phases::train {
using Records = results::TrainResults;
extern const PhaseRulesOf<Records> kRules;
}  // namespace phases::train

}  // namespace gpuscale::judge
