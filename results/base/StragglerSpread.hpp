#pragma once
// The straggler spread of the same work timed on several ranks: the slowest time's excess over the
// median of the ranks' times (Statistics' median: the mean of the two middle ones for an even count).
// The figure the compute phase reports and --expect max_straggler_spread bounds; the rule that names a
// rank a straggler measures the same excess (judge/base/Stragglers.hpp).
#include <optional>
#include <span>

namespace gpuscale::results {

// value / typical - 1: how much slower than the typical rank.
double excess_over(double value, double typical);
// The slowest time's excess over the median of `times`; nullopt for fewer than 2 times or a median
// that is not positive.
std::optional<double> straggler_spread(std::span<const double> times);

}  // namespace gpuscale::results
