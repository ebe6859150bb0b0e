// The training phase in the phase table: its plan, its part of the start-up line, its fit to the
// job, its policy.
#include "launch/PhaseSpec.hpp"
#include "launch/PlanFit.hpp"
#include "launch/PlanText.hpp"
#include "launch/RunPlan.hpp"
#include "launch/phases/train/TrainPhase.hpp"
#include "launch/phases/train/TrainPlan.hpp"

namespace gpuscale::launch::phases::train {
namespace {

void make_plan(RunPlan& plan, const PlanInputs& in) {
  plan.set("train",
           parse_train_plan(in.invocation.options, in.invocation.common.quick, in.cpu_backend, in.whole_job));
}

std::string describe_plan(const RunPlan& run_plan) {
  const auto& plan = run_plan.get<TrainPlan>("train");
  std::string models;
  for (const auto& m : plan.models) models += (models.empty() ? "" : ",") + m;
  return "train " + models + " in " + precision_list_text(plan.precisions) + ", " +
         counts_text(plan.timing.warmup, plan.timing.iterations, "steps");
}

// --gpus and --dp-devices name ranks and devices the job must have.
std::string misfit(const RunPlan& plan, const JobShape& shape) {
  const auto& t = plan.get<TrainPlan>("train");
  for (const int k : t.ddp_sizes)
    if (k > shape.ranks)
      return "--gpus " + std::to_string(k) + ": DDP over more ranks than the job's; the job has " +
             plural(shape.ranks, "rank");
  if (t.dp && t.dp_devices && *t.dp_devices > shape.dp_devices)
    return "--dp-devices " + std::to_string(*t.dp_devices) + ": rank 0 can drive " +
           plural(shape.dp_devices, "device") + " here";
  return "";
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "train",
    .add_options = add_train_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = misfit,
    .before_mpi = nullptr,
    .run = run_train_phase,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = false,
    .budget_weight = 2,
    // The first step tunes every layer (resnet50: 53 convs x 3 directions), and DP-style drives every
    // GPU of a node from one process.
    .timeout_s = 300,
};

}  // namespace gpuscale::launch::phases::train
