#include "launch/PlanFit.hpp"

#include <algorithm>

#include "harness/CudaBackend.hpp"
#include "launch/PhaseTable.hpp"

namespace gpuscale::launch {

int dp_device_limit(bool cpu_backend, int local_size) {
  return cpu_backend ? std::max(2, local_size) : harness::cuda_visible_device_count();
}

std::string plan_misfit(const RunPlan& plan, const JobShape& shape) {
  for (const auto& phase : phase_table()) {
    if (!phase.misfit || !plan.has(phase.name)) continue;
    if (auto problem = phase.misfit(plan, shape); !problem.empty()) return problem;
  }
  return "";
}

}  // namespace gpuscale::launch
