#include "results/base/StragglerSpread.hpp"

#include <algorithm>

#include "results/base/Statistics.hpp"

namespace gpuscale::results {

double excess_over(double value, double typical) { return value / typical - 1.0; }

std::optional<double> straggler_spread(std::span<const double> times) {
  if (times.size() < 2) return std::nullopt;
  const double typical = median(times);
  if (!(typical > 0)) return std::nullopt;
  return excess_over(*std::max_element(times.begin(), times.end()), typical);
}

}  // namespace gpuscale::results
