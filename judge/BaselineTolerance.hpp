#pragma once
// The tolerance a figure of a baseline (--baseline BASE.json) is judged with: by default from its recorded
// spread, or as --baseline-tolerance and --expect's baseline_tolerance set it (results/models/
// ToleranceOverrides.hpp). The rules that use it are judge/BaselineRules.hpp.
#include "results/report/Baseline.hpp"
#include "results/report/ToleranceOverrides.hpp"

namespace gpuscale::judge {

// Default tolerance: the largest of a floor (noise every benchmark has), kBaselineSpreadFactor robust
// standard deviations (1.4826 x MAD, relative to the median) and the worst deviation any recorded
// value had from the median, so that every run a baseline was made from passes it.
inline constexpr double kBaselineToleranceFloor = 0.05;
inline constexpr double kBaselineSpreadFactor = 3.0;

double default_tolerance(const results::BaselineFigure& f);
// The override of the most specific key that names `f`, else default_tolerance.
double tolerance_for(const results::BaselineFigure& f, const results::ToleranceOverrides& overrides);

}  // namespace gpuscale::judge
