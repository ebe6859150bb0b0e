#pragma once
// The thresholds the judge reads from a run, their defaults and ranges, in one place. The ranges: the options that set them for
// a run (collectives/SweepOptions.cpp), the --expect keys that set them again for `gpuscale report`
// (results/report/Expectations.cpp) and the consistency check of a saved run (RunConsistency.cpp).
// NaN lies in none of them.

namespace gpuscale::results {

// --straggler-threshold's default: a rank or GPU 10% slower than the median one is a straggler.
inline constexpr double kDefaultStragglerThreshold = 0.10;

// Mean GPU utilization (percent) of an idle look above which the GPU counts as busy with someone
// else's kernels even where NVML lists no other process (a PID namespace, MIG): the default of the
// report's busy_utilization_pct.
inline constexpr double kDefaultBusyUtilizationPct = 20.0;

constexpr bool is_pair_threshold(double x) { return x >= 0 && x <= 1; }          // [0, 1] of a median
constexpr bool is_isolate_threshold(double x) { return x > 0 && x < 1; }        // (0, 1) of a median
constexpr bool is_busy_utilization_pct(double x) { return x > 0 && x <= 100; }  // (0, 100] percent

}  // namespace gpuscale::results
