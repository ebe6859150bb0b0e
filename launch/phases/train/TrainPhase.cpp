#include "launch/phases/train/TrainPhase.hpp"

#include <limits>

#include "launch/Job.hpp"
#include "launch/PlanFit.hpp"
#include "launch/phases/train/TrainPlan.hpp"
#include "workloads/train/TrainRun.hpp"

namespace gpuscale::launch {

void run_train_phase(Job& job) {
  auto& backend = job.backend();
  TrainPlan plan = job.plan().get<TrainPlan>("train");  // the phase adds the job's shape
  if (plan.ddp_sizes.empty()) plan.ddp_sizes = default_ddp_sizes(job.world().size());
  const bool cpu = backend.kind() == harness::BackendKind::cpu;
  workloads::TrainRunSetup setup{
      .world = job.world(),
      .backend = backend,
      .seed = job.options().seed,
      // The preflight's 15 s leave room for the two checks that matter most.
      .dp_visible = plan.dp && job.world().rank() == 0 ? dp_device_limit(cpu, job.world().local_size()) : 0,
      .trace = job.options().trace_path.empty() ? nullptr : &job.report().trace_spans,
      .hooks = run_hooks(job),
  };
  auto results = workloads::run_training(plan, setup, job.timeout_s());
  if (job.world().rank() == 0) {
    auto& report = job.report();
    results::finish_train_results(results);
    report.train = std::move(results);
  }
  job.phase_done("train");
}

}  // namespace gpuscale::launch
