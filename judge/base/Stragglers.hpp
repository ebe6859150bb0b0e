#pragma once
// The one straggler rule, for the same work timed on several ranks: a rank is a straggler when its time
// is more than `threshold` (a fraction, the report's straggler_threshold) above the median of the
// ranks' times. The spread figure (results/base/StragglerSpread.hpp) is the slowest time's excess
// over that same median, so the check, the figure, the verdict's "no stragglers" line and --expect
// max_straggler_spread agree: of 2 GPUs, one 50% slower, the slow one is 20% above the median (1.25x
// the fast one's time).
namespace gpuscale::judge {

// Whether `value` (a time) lies more than `threshold` (a fraction) above `typical`, the median of its
// group's times.
bool is_straggler(double value, double typical, double threshold);
// Its mirror for a figure where more is better (TFLOP/s, GB/s): `value` lies more than `threshold` (a
// fraction) below `median`, the median of its group's values. Of 2 GPUs the median is their mean, so
// the slower one is flagged only when it is below (1 - threshold) x their mean.
bool is_below_median(double value, double median, double threshold);

}  // namespace gpuscale::judge
