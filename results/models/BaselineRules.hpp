#pragma once
// Judging a run against a baseline (--baseline BASE.json). Three rules, each a check id
// (results/schema/CheckIds.hpp) and one line in the verdict, however many figures it finds (the first few named):
//   baseline-drop         a figure worse than the baseline median by more than its tolerance, in the
//                         figure's worse direction (the rule compare uses: results/models/Compare.hpp)
//   baseline-missing      a figure that every baseline run measured is absent, in a phase this run
//                         completed; or the baseline has no group of this run's machine shape
//   baseline-new-failure  a check raised at warning or error that no baseline run raised
// Figures without a direction are never a drop; phases this run did not complete are not judged.
#include <map>
#include <string>
#include <vector>

#include "results/models/Baseline.hpp"
#include "results/schema/Check.hpp"
#include "results/models/Figure.hpp"
#include "results/schema/RuleOutcome.hpp"
#include "results/schema/RunReport.hpp"
#include "results/models/Statistics.hpp"

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

struct BaselineJudgement {
  std::vector<Check> findings;     // error severity, one per rule that found anything, aggregating its findings
  std::vector<RuleOutcome> rules;  // per rule: one FAIL line naming its first findings, or one PASS line
};

// `figures` are the figures the verdict judges (flatten(run)); the run's own checks are run.checks.
BaselineJudgement judge_against_baseline(const RunReport& run, const std::vector<Figure>& figures,
                                         const Baseline& baseline, const ToleranceOverrides& overrides);

}  // namespace gpuscale::results
