// The compute phase in the phase table: its plan, its part of the start-up line, its policy.
#include <algorithm>

#include "launch/PhaseSpec.hpp"
#include "launch/PlanText.hpp"
#include "launch/RunPlan.hpp"
#include "launch/phases/compute/ComputePhase.hpp"
#include "launch/phases/compute/ComputePlan.hpp"

namespace gpuscale::launch::phases::compute {
namespace {

void make_plan(RunPlan& plan, const PlanInputs& in) {
  plan.set("compute", parse_compute_plan(in.invocation.options, in.invocation.common.quick, in.cpu_backend));
}

std::string describe_plan(const RunPlan& run_plan) {
  const auto& plan = run_plan.get<ComputePlan>("compute");
  // Shape-major items: every precision of a shape, then the next shape (ComputePlan.hpp).
  std::vector<workloads::Precision> precisions;
  for (const auto& item : plan.items)
    if (std::find(precisions.begin(), precisions.end(), item.precision) == precisions.end())
      precisions.push_back(item.precision);
  const std::size_t shapes = precisions.empty() ? 0 : plan.items.size() / precisions.size();
  return "compute " + std::to_string(shapes) + " shapes in " + precision_list_text(precisions) + ", " +
         counts_text(plan.bench.warmup, plan.bench.iterations, "calls");
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "compute",
    .add_options = add_compute_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = nullptr,
    .before_mpi = nullptr,
    .run = run_compute_phase,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = false,
    .budget_weight = 2,
    // cuDNN's exhaustive algorithm search of a large conv times every algorithm (seconds each,
    // several directions) before the first timed wait returns.
    .timeout_s = 300,
};

}  // namespace gpuscale::launch::phases::compute
