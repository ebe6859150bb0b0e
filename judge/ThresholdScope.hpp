#pragma once
// What a user threshold (--expect) judges: only the figures it names, and only where the run could
// measure them. The rule (docs/REPORT.md, "--expect FILE"): a threshold that no figure matches is
//   SKIP  where this run never measures such a figure by its plan or shape: a phase the command does
//         not run, a label value its plan never gives (a size the profile does not measure, a
//         precision, op or model it does not run), more ranks or GPUs than the job has, a spread or a
//         link between GPUs on one rank (or a straggler spread without 2 GPU ranks), or only one-GPU
//         figures (below) that it does not name;
//   FAIL  otherwise, "not measured": the run should have measured it and did not (a phase skipped
//         for an env check, work dropped for the budget, a skipped record). A PASS on a broken node is
//         the worst outcome, so only what the plan and shape rule out is skipped; a run without a
//         plan (an older file) skips only by its shape.
// A threshold on speed in the shared-GPU test layout is SKIP whatever its figures (shared_gpu_skip).
// And one-GPU figures that measure no scaling (a collective over one rank, a local copy; DDP or DP on
// one GPU, its overhead over single) are not judged by a threshold that does not name them (ranks 1,
// gpus 1). Pure.
#include <string>

#include "results/base/Figure.hpp"
#include "results/report/Expectations.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

// Why `t` is not judged in this test layout: ranks of different emulated nodes share a GPU
// (world.emulated.shared_gpu), so a figure of speed measures their contention, as the built-in speed
// rules say (their SKIP line). "" otherwise, and for thresholds that judge no speed (wrong elements,
// checks, counts).
std::string shared_gpu_skip(const results::Threshold& t, const results::RunReport& report);

// Why no figure of `t` can exist in `report` ("" when the run should have measured one).
std::string threshold_out_of_scope(const results::Threshold& t, const results::RunReport& report);

// True for a figure that `t` matches by its labels but does not judge: a one-rank collective or a
// one-GPU scaling efficiency, unless `t` names that rank or GPU count.
bool one_gpu_figure_unnamed(const results::Threshold& t, const results::Figure& f);

// What a FAIL "not measured" adds about why: the phase skipped, not reached or trimmed by the budget.
std::string why_not_measured(const results::Threshold& t, const results::RunReport& report);

}  // namespace gpuscale::judge
