#include "results/models/BaselineTolerance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "results/models/Compare.hpp"
#include "results/models/FigureNames.hpp"
#include "results/models/Statistics.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::results {
namespace {

// sigma / |median| as a fraction; +inf for a spread around a zero median.
double relative(double spread, double median) {
  if (spread == 0) return 0;
  return median == 0 ? std::numeric_limits<double>::infinity() : spread / std::fabs(median);
}

}  // namespace

double default_tolerance(const BaselineFigure& f) {
  double worst_recorded = 0;
  if (f.better == Better::higher) worst_recorded = -relative_change(f.median, f.min);
  if (f.better == Better::lower) worst_recorded = relative_change(f.median, f.max);
  return std::max({kBaselineToleranceFloor, kBaselineSpreadFactor * relative(kMadToSigma * f.mad, f.median),
                   worst_recorded});
}

double tolerance_for(const BaselineFigure& f, const ToleranceOverrides& overrides) {
  for (const auto& key : {baseline_key(f), f.phase + "/" + f.metric, f.metric})
    if (const auto it = overrides.find(key); it != overrides.end()) return it->second;
  return default_tolerance(f);
}

void check_tolerance_override(const std::string& key, double fraction) {
  const auto slash = key.find('/');
  const std::string metric = slash == std::string::npos ? key : key.substr(slash + 1, key.find('/', slash + 1) - slash - 1);
  if (!names::is_known_metric(metric))
    refuse_input("baseline tolerance '" + key + "': unknown metric '" + metric +
                 "' (KEY is METRIC, PHASE/METRIC or PHASE/METRIC/LABELS; metrics in docs/REPORT.md)");
  if (!std::isfinite(fraction) || fraction < 0)
    refuse_input("baseline tolerance '" + key + "' must be a fraction >= 0, e.g. 0.05");
}

void add_tolerance_override(const std::string& text, ToleranceOverrides& overrides) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    refuse_input("--baseline-tolerance expects KEY=FRACTION, e.g. compute/tflops=0.08, got '" + text + "'");
  const std::string key = text.substr(0, eq), value = text.substr(eq + 1);
  char* end = nullptr;
  const double fraction = std::strtod(value.c_str(), &end);
  if (*end != '\0') refuse_input("--baseline-tolerance " + text + ": '" + value + "' is not a number");
  check_tolerance_override(key, fraction);
  overrides[key] = fraction;
}

}  // namespace gpuscale::results
