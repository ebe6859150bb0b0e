#include "launch/Phases.hpp"

#include <algorithm>
#include <iostream>

#include "harness/Activity.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/Watchdog.hpp"
#include "launch/BurnPhase.hpp"
#include "launch/CollectivesPhase.hpp"
#include "launch/CommandAgreement.hpp"
#include "launch/ComputePhase.hpp"
#include "launch/EnvPhase.hpp"
#include "launch/FailurePath.hpp"
#include "launch/LinksPhase.hpp"
#include "launch/ProjectionOptions.hpp"
#include "launch/TrainPhase.hpp"
#include "launch/RunPlan.hpp"

namespace gpuscale::launch {

std::vector<Phase> phases_for(const std::string& command) {
  const Phase env{"env", run_env_phase, false};
  const Phase collectives{"collectives", run_collectives_phase};
  const Phase compute{"compute", run_compute_phase};
  const Phase burn{"burn", run_burn_phase, true, /*runs_on_shared_gpu=*/true};
  const Phase links{"links", run_links_phase};
  if (command == "env") return {env};
  if (command == "burn") return {env, burn};
  if (command == "links") return {env, links};
  const Phase train{"train", run_train_phase};
  if (command == "collectives") return {env, collectives};
  if (command == "compute") return {env, compute};
  if (command == "train") return {env, train};
  // `run`: the environment first, then host links and device memory (a second or two per GPU, on
  // GPUs still cool), compute, a short burn (after compute, whose figures it would otherwise heat),
  // collectives and training.
  return {env, links, compute, burn, collectives, train};
}

namespace {

// Every phase's options are checked before MPI starts and before any output, so bad input is one
// line and exit 2 on every rank (the Job resolves the plan again, with the backend known).
void validate_phase_options(const Invocation& invocation) {
  resolve_run_plan(invocation, invocation.common.device == "cpu");
  const auto& c = invocation.command;
  if (c == "collectives" || c == "run") project_ranks(invocation.options);
}

}  // namespace

int run_command(const Invocation& invocation, int argc, char** argv, std::string usage_error) {
  harness::install_signal_handlers();
  const harness::Watchdog watchdog;  // the last resort behind every deadline (Watchdog.hpp)
  std::unique_ptr<harness::World> world;
  const auto startup = harness::Deadline::after(invocation.common.timeouts.env_s);  // bootstrap: env's timeout
  try {
    if (usage_error.empty()) {
      try {
        prepare_collectives(invocation);
        validate_phase_options(invocation);
        // Test seams, with the launcher's rank (a singleton is rank 0): "init" fires before MPI starts.
        harness::configure_faults(std::max(0, harness::launcher_rank()));
      } catch (const harness::UsageError& e) {
        usage_error = e.what();
      }
    }
    // Without a launcher there is no one to agree with: the line now, no MPI.
    if (!usage_error.empty() && harness::launcher_rank() < 0) {
      std::cerr << "gpuscale: error: " << usage_error << '\n';
      return static_cast<int>(harness::ExitCode::usage);
    }
    harness::enter_phase("init");
    world = std::make_unique<harness::World>(&argc, &argv, startup);
  } catch (const harness::Error& e) {
    // Every task meets the same launch problem: one line from the launcher's rank 0 is enough.
    if (e.exit_code() != harness::ExitCode::usage || is_launcher_rank_zero()) std::cerr << "gpuscale: " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  }
  try {
    if (!agree_on_command(*world, invocation, usage_error, startup)) return static_cast<int>(harness::ExitCode::usage);
  } catch (const harness::Error& e) {
    end_job_after_error(*world, nullptr, e);
  }
  std::unique_ptr<Job> job;
  try {
    harness::configure_faults(world->rank());  // test seams; a malformed value is a UsageError
    job = std::make_unique<Job>(invocation, *world);
    const auto phases = phases_for(invocation.command);
    for (std::size_t i = 0; i < phases.size(); ++i) {
      harness::enter_phase(phases[i].name);
      job->begin_phase(phases[i].name, i + 1, phases.size());
      const auto& blocked = job->gpu_work_blocked(phases[i].runs_on_shared_gpu);
      if (phases[i].needs_gpu_work && !blocked.empty()) {
        job->progress("skipped: " + blocked);
        job->phase_skipped(phases[i].name, blocked);
        continue;
      }
      phases[i].run(*job);
      job->check_tenancy(phases[i].name);  // the last one is the run's end
    }
    harness::enter_phase("finish");
    return job->finish();
  } catch (const harness::UsageError& e) {
    // Raised alike on every rank (validated collectively), so every rank can leave cleanly.
    if (world->rank() == 0) std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::usage);
  } catch (const harness::Error& e) {
    end_job_after_error(*world, job.get(), e);
  } catch (const std::exception& e) {
    end_job_after_unexpected(*world, job.get(), e);
  }
}

}  // namespace gpuscale::launch
