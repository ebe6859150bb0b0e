#include "phases/train/run/TrainPhase.hpp"

#include "launch/base/DpDevices.hpp"
#include "phases/train/run/TrainPlan.hpp"
#include "workloads/train/TrainRun.hpp"

namespace gpuscale::launch {

TrainOutcome run_train_phase(PhaseContext& ctx) {
  const auto& phase_plan = ctx.plan<TrainPhasePlan>();
  TrainPlan plan = phase_plan.train;  // the phase adds the job's shape
  if (plan.ddp_sizes.empty()) plan.ddp_sizes = default_ddp_sizes(ctx.world.size());
  const bool cpu = ctx.backend.kind() == harness::BackendKind::cpu;
  TrainOutcome out;
  workloads::TrainRunSetup setup{
      .world = ctx.world,
      .backend = ctx.backend,
      .seed = phase_plan.seed,
      // The preflight's 15 s leave room for the two checks that matter most.
      .dp_visible = plan.dp && ctx.world.rank() == 0 ? dp_device_limit(cpu, ctx.world.local_size()) : 0,
      .trace = phase_plan.trace ? &out.trace_spans : nullptr,
      .hooks = ctx.hooks,
  };
  out.results = workloads::run_training(plan, setup, ctx.timeout_s);
  if (ctx.world.rank() == 0) results::finish_train_results(out.results);
  return out;
}

}  // namespace gpuscale::launch
