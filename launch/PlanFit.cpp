#include "launch/PlanFit.hpp"

#include "launch/PhaseTable.hpp"

namespace gpuscale::launch {

std::string plan_misfit(const RunPlan& plan, const JobShape& shape) {
  for (const auto& phase : phase_table()) {
    if (!phase.misfit || !plan.has(phase.name)) continue;
    if (auto problem = phase.misfit(plan, shape); !problem.empty()) return problem;
  }
  return "";
}

}  // namespace gpuscale::launch
