#pragma once
// Judging a run against a baseline (--baseline BASE.json). Three rules, each a check id
// (results/base/CheckIds.hpp) and one line in the verdict, however many figures it finds (the first few named):
//   baseline-drop         a figure worse than the baseline median by more than its tolerance, in the
//                         figure's worse direction (the rule compare uses: judge/Regression.hpp)
//   baseline-missing      a figure that every baseline run measured is absent, in a phase this run
//                         completed; or the baseline has no group of this run's machine shape
//   baseline-new-failure  a check raised at warning or error that no baseline run raised
// Figures without a direction are never a drop; phases this run did not complete are not judged; nor
// are a one-rank collective's speed (a local copy) and a figure timed under 10 us
// (results/base/FigureNoise.hpp), which the PASS line counts.
#include <map>
#include <string>
#include <vector>

#include "judge/BaselineTolerance.hpp"
#include "results/base/Check.hpp"
#include "results/base/Figure.hpp"
#include "results/base/RuleOutcome.hpp"
#include "results/report/Baseline.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

struct BaselineJudgement {
  // Error severity, one per rule that found anything, aggregating its findings.
  std::vector<results::Check> findings;
  std::vector<results::RuleOutcome> rules;  // per rule: one FAIL line naming its first findings, or one PASS line
};

// `figures` are the figures the verdict judges (flatten(run)); the run's own checks are run.checks.
BaselineJudgement judge_against_baseline(const results::RunReport& run, const std::vector<results::Figure>& figures,
                                         const results::Baseline& baseline,
                                         const results::ToleranceOverrides& overrides);

}  // namespace gpuscale::judge
