#include "judge/base/Stragglers.hpp"

#include "results/base/StragglerSpread.hpp"

namespace gpuscale::judge {

bool is_straggler(double value, double typical, double threshold) {
  return results::excess_over(value, typical) > threshold;
}

bool is_below_median(double value, double median, double threshold) { return value < median * (1 - threshold); }

}  // namespace gpuscale::judge
