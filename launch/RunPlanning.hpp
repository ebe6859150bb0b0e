#pragma once
// The driver's side of the plan (launch/base/RunPlan.hpp): resolving it from the command line and the
// phase table, the start-up line that states it, and the report's record of it. Pure (no MPI, no
// device); bad input throws harness::UsageError with one line.
#include <string>

#include "launch/base/Invocation.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/RunPlan.hpp"
#include "results/base/PlanRecord.hpp"

namespace gpuscale::launch {

// Each phase's part of the plan (PhaseSpec::plan) for the command's phases, on `cpu_backend` or not.
RunPlan resolve_run_plan(const Invocation& invocation, bool cpu_backend);

// The start-up line: "quick-cpu (budget 15 s): compute 2 shapes in tf32,bf16, 2+5 calls; collectives
// 7 ops, 7 sizes 8..32K, 2+5 iterations; train mlp in bf16, 1+3 steps": each planned phase's part
// (PhaseSpec::describe) in the table's order. Warm-up + timed counts; sizes as the options take them.
std::string describe(const RunPlan& plan);

// What the command planned on a job of `shape`, for the report (PlanRecord.hpp): the profile, the
// command's phases and each planned phase's items (PhaseSpec::planned), in the table's order.
results::RunPlanRecord plan_record(const RunPlan& plan, const std::string& command, const JobShape& shape,
                                   bool require_complete);

}  // namespace gpuscale::launch
