#pragma once
// The per-figure tolerances a user sets for --baseline: --baseline-tolerance KEY=FRAC and --expect's
// baseline_tolerance, parsed and checked. The rule that judges with them (and the default tolerance
// where none is set) is judge/BaselineTolerance.hpp.
#include <map>
#include <string>

namespace gpuscale::results {

// Fractions that replace the default tolerance: key "PHASE/METRIC/LABELS" (labels as the baseline
// keys them, without rank), "PHASE/METRIC" or "METRIC"; the most specific key that matches wins.
using ToleranceOverrides = std::map<std::string, double>;

// Parses "KEY=FRAC" (--baseline-tolerance) into `overrides`. Throws std::invalid_argument with one
// line for a missing '=', a fraction that is not a finite number >= 0, or a key naming no metric.
void add_tolerance_override(const std::string& text, ToleranceOverrides& overrides);
// Validates one override (as from --expect's baseline_tolerance); throws like add_tolerance_override.
void check_tolerance_override(const std::string& key, double fraction);

}  // namespace gpuscale::results
