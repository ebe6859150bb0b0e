#pragma once
// The verdict: built-in rules (error checks fail; wrong elements fail; stragglers past the report's
// --straggler-threshold and link use under the collectives phase's --link-threshold warn), the
// --baseline rules and then the user's thresholds, each one line of the PASS/WARN/FAIL list. The run
// fails when any line is FAIL.
#include <vector>

#include "results/base/Figure.hpp"
#include "results/report/Expectations.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

// `figures` is flatten(report) (passed in so callers that already have it do not flatten twice).
// `baseline_rules` (judge/BaselineRules.hpp: judge_against_baseline) follow the checks_must_pass lines.
results::Verdict evaluate_verdict(const results::RunReport& report, const std::vector<results::Figure>& figures,
                                  const results::Expectations& expectations,
                                  const std::vector<results::RuleOutcome>& baseline_rules = {});

}  // namespace gpuscale::judge
