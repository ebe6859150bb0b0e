#pragma once
// The tolerance a figure of a baseline (--baseline BASE.json) is judged with: by default from its recorded
// spread, or as --baseline-tolerance and --expect's baseline_tolerance set it. The rules that use it are
// judge/BaselineRules.hpp.
#include <map>
#include <string>

#include "results/models/Baseline.hpp"

namespace gpuscale::results {

// Default tolerance: the largest of a floor (noise every benchmark has), kBaselineSpreadFactor robust
// standard deviations (1.4826 x MAD, relative to the median) and the worst deviation any recorded
// value had from the median, so that every run a baseline was made from passes it.
inline constexpr double kBaselineToleranceFloor = 0.05;
inline constexpr double kBaselineSpreadFactor = 3.0;

// Fractions that replace the default tolerance: key "PHASE/METRIC/LABELS" (labels as the baseline
// keys them, without rank), "PHASE/METRIC" or "METRIC"; the most specific key that matches wins.
using ToleranceOverrides = std::map<std::string, double>;

double default_tolerance(const BaselineFigure& f);
double tolerance_for(const BaselineFigure& f, const ToleranceOverrides& overrides);

// Parses "KEY=FRAC" (--baseline-tolerance) into `overrides`. Throws std::invalid_argument with one
// line for a missing '=', a fraction that is not a finite number >= 0, or a key naming no metric.
void add_tolerance_override(const std::string& text, ToleranceOverrides& overrides);
// Validates one override (as from --expect's baseline_tolerance); throws like add_tolerance_override.
void check_tolerance_override(const std::string& key, double fraction);

}  // namespace gpuscale::results
