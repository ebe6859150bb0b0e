#pragma once
// Which checks of the check table (results/base/CheckTable.def) a run's rules looked for, so that a
// check the run did not raise can be told from one it never looked for: a dashboard's "passed" needs
// both (the Prometheus series gpuscale_check_passed).
//
// A check ran where it was raised, or else where a phase that lists its docs section completed
// (results/views/PhaseView.hpp: check_sections): environment, outliers and budget with env (budget
// only in a run that kept a budget: the whole-job run); each phase's own with it; floors with burn or
// links; training and the training proofs with train; a baseline check where the verdict judged a
// --baseline and names it. Retired checks never run, and where the ranks share GPUs
// in a test layout (Emulation), neither do the checks that judge speed: they say nothing there.
#include <string_view>
#include <vector>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// The ids that ran, in the table's order.
std::vector<std::string_view> checks_that_ran(const RunReport& report);

}  // namespace gpuscale::results
