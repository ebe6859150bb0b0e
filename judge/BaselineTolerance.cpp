#include "judge/BaselineTolerance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "results/base/FigureNames.hpp"
#include "results/base/Statistics.hpp"
#include "results/models/Compare.hpp"
#include "results/report/Baseline.hpp"

namespace gpuscale::judge {

using results::BaselineFigure;
using results::Better;

namespace {

// sigma / |median| as a fraction; +inf for a spread around a zero median.
double relative(double spread, double median) {
  if (spread == 0) return 0;
  return median == 0 ? std::numeric_limits<double>::infinity() : spread / std::fabs(median);
}

}  // namespace

double default_tolerance(const BaselineFigure& f) {
  double worst_recorded = 0;
  if (f.better == Better::higher) worst_recorded = -results::relative_change(f.median, f.min);
  if (f.better == Better::lower) worst_recorded = results::relative_change(f.median, f.max);
  return std::max({kBaselineToleranceFloor, kBaselineSpreadFactor * relative(results::kMadToSigma * f.mad, f.median),
                   worst_recorded});
}

double tolerance_for(const BaselineFigure& f, const results::ToleranceOverrides& overrides) {
  for (const auto& key : {results::baseline_key(f), f.phase + "/" + f.metric, f.metric})
    if (const auto it = overrides.find(key); it != overrides.end()) return it->second;
  return default_tolerance(f);
}

}  // namespace gpuscale::judge
