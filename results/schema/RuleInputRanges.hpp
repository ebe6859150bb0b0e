#pragma once
// The ranges of the thresholds the judge reads from a run, in one place: the options that set them for
// a run (collectives/SweepOptions.cpp), the --expect keys that set them again for `gpuscale report`
// (results/report/Expectations.cpp) and the consistency check of a saved run (RunConsistency.cpp).
// NaN lies in none of them.

namespace gpuscale::results {

constexpr bool is_pair_threshold(double x) { return x >= 0 && x <= 1; }          // [0, 1] of a median
constexpr bool is_isolate_threshold(double x) { return x > 0 && x < 1; }        // (0, 1) of a median
constexpr bool is_busy_utilization_pct(double x) { return x > 0 && x <= 100; }  // (0, 100] percent

}  // namespace gpuscale::results
