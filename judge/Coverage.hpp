#pragma once
// Coverage: every item the command planned (RunReport::plan, results/base/PlanRecord.hpp), judged
// against the records, as dcgmi diag lists every test it planned: PASS (measured in full), WARN (in
// part), SKIP (not at all), each with why (the budget spent, one rank, the phase not run, the record's
// own reason). Work the job needed that was dropped (collectives or DDP over more than one GPU, a whole
// phase not run) makes the verdict's "planned work done" line WARN, and FAIL with --require-complete
// (whose items then read FAIL). Pure: the judge calls it at every write and in `gpuscale report`.
#include <optional>
#include <vector>

#include "results/base/PlanRecord.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

// One line per planned item, in the plan's order; empty for a run without a plan (an older file).
std::vector<results::CoverageItem> judge_coverage(const results::RunReport& report, bool require_complete);

// The verdict's line on the coverage: absent without a plan (and without --require-complete, which
// FAILs a run whose coverage cannot be known).
std::optional<results::RuleOutcome> coverage_rule(const results::RunReport& report,
                                                  const std::vector<results::CoverageItem>& coverage,
                                                  bool require_complete);

}  // namespace gpuscale::judge
