#include "launch/RunPlanning.hpp"

#include "launch/Commands.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/ProjectionOptions.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {

RunPlan resolve_run_plan(const Invocation& invocation, bool cpu_backend) {
  RunPlan plan;
  plan.profile = make_profile(invocation.common.quick, cpu_backend);
  plan.project_ranks = project_ranks(invocation.options);
  const PlanInputs inputs{invocation, plan.profile, cpu_backend, command_named(invocation.command).whole_job};
  for (const auto& phase : phases_for(invocation.command))
    if (phase.plan) phase.plan(plan, inputs);
  return plan;
}

std::string describe(const RunPlan& plan) {
  std::string text = plan.profile.name + " (budget " + results::fixed(plan.profile.budget_s, 0) + " s)";
  std::string parts;
  for (const auto& phase : phase_table())
    if (phase.describe && plan.has(phase.name)) parts += (parts.empty() ? "" : "; ") + phase.describe(plan);
  return parts.empty() ? text : text + ": " + parts;
}

results::RunPlanRecord plan_record(const RunPlan& plan, const std::string& command, const JobShape& shape,
                                   bool require_complete) {
  results::RunPlanRecord record;
  record.profile = plan.profile.name;
  record.require_complete = require_complete;
  for (const auto& phase : phases_for(command)) {
    record.phases.emplace_back(phase.name);
    if (phase.planned && (plan.has(phase.name) || !phase.plan)) phase.planned(plan, shape, record);
  }
  return record;
}

}  // namespace gpuscale::launch
