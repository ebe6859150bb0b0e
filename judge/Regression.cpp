#include "judge/Regression.hpp"

#include <cmath>

#include "results/base/FigureNoise.hpp"

namespace gpuscale::judge {

using results::Better;

bool regressed(Better better, double change, double tolerance) {
  if (std::isnan(change)) return better != Better::none;  // a figure that became NaN is worse
  if (better == Better::higher) return change < -tolerance;
  if (better == Better::lower) return change > tolerance;
  return false;
}

results::Comparison compare_figures(const std::vector<results::Figure>& base,
                                    const std::vector<results::Figure>& latest, double tolerance) {
  return results::match_figures(
      base, latest, tolerance, [tolerance](const results::Figure& b, const results::Figure& n, double change) {
        return regressed(b.better, change, tolerance) && results::beyond_noise(b, n);
      });
}

bool comparison_fails(const results::Comparison& c, const results::CompareVerdict& v) {
  return c.regressions() > 0 || (results::unexplained_missing(c, v) > 0 && !v.allow_missing) ||
         !v.new_run_failed.empty();
}

}  // namespace gpuscale::judge
