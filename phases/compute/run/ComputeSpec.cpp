// The compute phase in the phase table: its plan, its part of the start-up line, its policy.
#include <algorithm>
#include <utility>
#include <vector>

#include "launch/base/Invocation.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/PhaseRun.hpp"
#include "launch/base/PhaseSpec.hpp"
#include "launch/base/PlanText.hpp"
#include "launch/base/RunPlan.hpp"
#include "phases/compute/run/ComputePhase.hpp"
#include "phases/compute/run/ComputePlan.hpp"

namespace gpuscale::launch::phases::compute {
namespace {

void make_plan(RunPlan& plan, const PlanInputs& in) {
  auto compute = parse_compute_plan(in.invocation.options, in.profile.compute);
  compute.bench.seed = in.invocation.common.seed;
  plan.set("compute", std::move(compute));
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

// One item per precision over the plan's shapes and passes; the labels its figures take.
void planned(const RunPlan& run_plan, const JobShape&, results::RunPlanRecord& out) {
  const auto& plan = run_plan.get<ComputePlan>("compute");
  std::vector<std::string> precisions, sets, layers, passes;
  bool every_shape_named = true;
  for (const auto& item : plan.items) {
    const std::string p(workloads::to_string(item.precision));
    if (std::find(precisions.begin(), precisions.end(), p) == precisions.end()) precisions.push_back(p);
    sets.push_back(item.shape.set);
    layers.push_back(item.shape.name);
    every_shape_named = every_shape_named && !item.shape.name.empty();
  }
  for (const auto pass : workloads::kAllPasses)
    if (workloads::contains(plan.bench.passes, pass)) passes.emplace_back(workloads::to_string(pass));
  const int shapes = precisions.empty() ? 0 : static_cast<int>(plan.items.size() / precisions.size());
  for (const auto& p : precisions)
    add_planned(out, "compute", results::planned::kCompute,
                p + ": " + std::to_string(shapes) + (shapes == 1 ? " shape" : " shapes") + " x " +
                    std::to_string(passes.size()) + (passes.size() == 1 ? " pass" : " passes"),
                {{"precision", p}}, shapes * static_cast<int>(passes.size()), 1);
  add_planned_labels(out, "compute", "precision", precisions);
  add_planned_labels(out, "compute", "set", sets);
  add_planned_labels(out, "compute", "pass", passes);
  // A shape given without a name is labelled by its shape text; its label is not listed, so any goes.
  if (every_shape_named) add_planned_labels(out, "compute", "layer", layers);
}

// Rank 0 holds every rank's records.
void keep(PhaseDriver& driver, std::vector<results::ComputeRecord>&& all) {
  if (driver.world().rank() == 0) driver.report().compute = std::move(all);
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "compute",
    .summary = "cuBLAS matmul and cuDNN convolution, forward and backward",
    .examples = "mpirun -np 8 gpuscale compute\n"
                "mpirun -np 2 gpuscale compute --mnk 8192,8192,8192 --precision bf16 --cudnn-algo exhaustive\n"
                "gpuscale compute --shapes resnet50 --precision fp16,bf16 --json compute.json\n"
                "gpuscale compute --conv 32,256,56,56,256,3,3,1,1,1 --layout nhwc",
    .add_options = add_compute_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = nullptr,
    .planned = planned,
    .before_mpi = nullptr,
    .run = run_phase<run_compute_phase, keep>,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = false,
    .budget_weight = 2,
    // cuDNN's exhaustive algorithm search of a large conv times every algorithm (seconds each,
    // several directions) before the first timed wait returns.
    .timeout_s = 300,
};

}  // namespace gpuscale::launch::phases::compute
