// The training phase in the phase table: its plan, its part of the start-up line, its fit to the
// job, its policy.
#include <utility>

#include "launch/base/Invocation.hpp"
#include "launch/base/JobShape.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/PhaseRun.hpp"
#include "launch/base/PhaseSpec.hpp"
#include "launch/base/PlanText.hpp"
#include "launch/base/RunPlan.hpp"
#include "phases/train/TrainRecord.hpp"
#include "phases/train/run/TrainPhase.hpp"
#include "phases/train/run/TrainPlan.hpp"
#include "results/base/Format.hpp"
#include "workloads/train/Model.hpp"

namespace gpuscale::launch::phases::train {
namespace {

using results::plural;

void make_plan(RunPlan& plan, const PlanInputs& in) {
  plan.set("train", TrainPhasePlan{parse_train_plan(in.invocation.options, in.profile.train, in.whole_job),
                                   in.invocation.common.seed, !in.invocation.common.trace_path.empty()});
}

std::string describe_plan(const RunPlan& run_plan) {
  const auto& plan = run_plan.get<TrainPhasePlan>("train").train;
  std::string models;
  for (const auto& m : plan.models) models += (models.empty() ? "" : ",") + m;
  return "train " + models + " in " + precision_list_text(plan.precisions) + ", " +
         counts_text(plan.timing.warmup, plan.timing.iterations, "steps");
}

// --gpus and --dp-devices name ranks and devices the job must have.
std::string misfit(const RunPlan& plan, const JobShape& shape) {
  const auto& t = plan.get<TrainPhasePlan>("train").train;
  for (const int k : t.ddp_sizes)
    if (k > shape.ranks)
      return "--gpus " + std::to_string(k) + ": DDP over more ranks than the job's; the job has " +
             plural(shape.ranks, "rank");
  if (t.dp && t.dp_devices && *t.dp_devices > shape.dp_devices)
    return "--dp-devices " + std::to_string(*t.dp_devices) + ": rank 0 can drive " +
           plural(shape.dp_devices, "device") + " here";
  return "";
}

// Per model and precision: single, each DDP size (weak; strong where the batch splits evenly), DP
// on rank 0's devices, the gradient checks; and the labels their figures take.
void planned(const RunPlan& run_plan, const JobShape& shape, results::RunPlanRecord& out) {
  const auto& plan = run_plan.get<TrainPhasePlan>("train").train;
  const auto ddp_sizes = plan.ddp_sizes.empty() ? default_ddp_sizes(shape.ranks) : plan.ddp_sizes;
  const int dp_devices = plan.dp_devices.value_or(shape.dp_devices);
  std::vector<std::string> strategies, scalings, gpus{"1"};
  if (plan.weak) scalings.push_back("weak");
  if (plan.strong) scalings.push_back("strong");
  const auto config = [&](const std::string& strategy, const std::string& model, const std::string& precision,
                          const std::string& scaling, int k) {
    results::TrainRecord named;  // named as the console names its record: "ddp mlp bf16 x4 weak"
    named.strategy = strategy, named.model = model, named.precision = precision, named.scaling = scaling;
    named.gpus = k;
    add_planned(out, "train", results::planned::kTrain, results::train_config(named),
                {{"strategy", strategy},
                 {"model", model},
                 {"precision", precision},
                 {"scaling", scaling},
                 {"gpus", std::to_string(k)}},
                1, k);
  };
  for (const auto& model : plan.models) {
    const auto batch = plan.batch.value_or(workloads::make_model(model, {plan.depth, plan.width, {}}).default_batch);
    for (const auto precision_value : plan.precisions) {
      const std::string precision(workloads::to_string(precision_value));
      const std::string what = model + " " + precision;
      if (plan.check)
        add_planned(out, "train", results::planned::kTrainChecks, "gradient checks " + what,
                    {{"model", model}, {"precision", precision}}, 1, shape.ranks);
      if (plan.single) config("single", model, precision, "weak", 1);
      for (const int k : plan.ddp ? ddp_sizes : std::vector<int>{}) {
        if (plan.weak) config("ddp", model, precision, "weak", k);
        if (plan.strong && batch % k == 0) config("ddp", model, precision, "strong", k);
        gpus.push_back(std::to_string(k));
      }
      int dp_configs = 0;
      for (int g = 1; g <= dp_devices; ++g) dp_configs += (plan.weak ? 1 : 0) + (plan.strong && batch % g == 0 ? 1 : 0);
      if (plan.dp)
        add_planned(out, "train", results::planned::kDp, "dp " + what + " on up to " + plural(dp_devices, "device"),
                    {{"model", model}, {"precision", precision}}, dp_configs, dp_devices);
    }
  }
  for (int g = 1; plan.dp && g <= dp_devices; ++g) gpus.push_back(std::to_string(g));
  if (plan.single) strategies.emplace_back("single");
  if (plan.ddp) strategies.emplace_back("ddp");
  if (plan.dp) strategies.emplace_back("dp");
  add_planned_labels(out, "train", "strategy", strategies);
  add_planned_labels(out, "train", "model", plan.models);
  std::vector<std::string> precisions;
  for (const auto p : plan.precisions) precisions.emplace_back(workloads::to_string(p));
  add_planned_labels(out, "train", "precision", precisions);
  add_planned_labels(out, "train", "scaling", scalings);
  add_planned_labels(out, "train", "gpus", gpus);
}

// Rank 0 holds every configuration's record and the checks' outcomes, and the spans for --trace.
void keep(PhaseDriver& driver, TrainOutcome&& out) {
  if (driver.world().rank() != 0) return;
  auto& report = driver.report();
  report.train = std::move(out.results);
  report.trace_spans.insert(report.trace_spans.end(), out.trace_spans.begin(), out.trace_spans.end());
}

}  // namespace

extern constinit const PhaseSpec kPhase{
    .name = "train",
    .summary = "data-parallel training steps: single, DP-style, DDP-style; scaling report",
    .examples = "mpirun -np 8 gpuscale train\n"
                "mpirun -np 2 gpuscale train --model mlp --precision bf16 --scaling both\n"
                "mpirun -np 8 gpuscale train --model resnet50,transformer --grad-dtype bf16 --comm-priority both\n"
                "mpirun -np 4 gpuscale train --device cpu --strategy ddp --accum 4",
    .add_options = add_train_options,
    .plan = make_plan,
    .describe = describe_plan,
    .misfit = misfit,
    .planned = planned,
    .before_mpi = nullptr,
    .run = run_phase<run_train_phase, keep>,
    .needs_gpu_work = true,
    .runs_on_shared_gpu = false,
    .feeds_projection = true,
    .budget_weight = 2,
    // The first step tunes every layer (resnet50: 53 convs x 3 directions), and DP-style drives every
    // GPU of a node from one process.
    .timeout_s = 300,
};

}  // namespace gpuscale::launch::phases::train
