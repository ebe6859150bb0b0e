#include "launch/Phases.hpp"

#include <algorithm>
#include <iostream>

#include "harness/Activity.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/Watchdog.hpp"
#include "launch/CollectivesPhase.hpp"
#include "launch/ComputePlan.hpp"
#include "launch/ComputePhase.hpp"
#include "launch/EnvPhase.hpp"
#include "launch/FailurePath.hpp"
#include "launch/ProjectionOptions.hpp"
#include "launch/TrainPhase.hpp"
#include "launch/TrainPlan.hpp"

namespace gpuscale::launch {

std::vector<Phase> phases_for(const std::string& command) {
  const Phase env{"env", run_env_phase};
  const Phase collectives{"collectives", run_collectives_phase};
  const Phase compute{"compute", run_compute_phase};
  if (command == "env") return {env};
  const Phase train{"train", run_train_phase};
  if (command == "collectives") return {env, collectives};
  if (command == "compute") return {env, compute};
  if (command == "train") return {env, train};
  // `run`: the environment first, then compute, collectives and training.
  return {env, compute, collectives, train};
}

namespace {

// Every phase's options are checked before MPI starts and before any output, so bad input is one
// line and exit 2 on every rank (the phases parse them again, with the backend known).
void validate_phase_options(const Invocation& invocation) {
  const auto& c = invocation.command;
  const bool cpu = invocation.common.device == "cpu";
  if (c == "compute" || c == "run") parse_compute_plan(invocation.options, invocation.common.quick, cpu);
  if (c == "train" || c == "run") parse_train_plan(invocation.options, invocation.common.quick, cpu);
  if (c == "collectives" || c == "run") project_ranks(invocation.options);
}

}  // namespace

int run_command(const Invocation& invocation, int argc, char** argv) {
  harness::install_signal_handlers();
  const harness::Watchdog watchdog;  // the last resort behind every deadline (Watchdog.hpp)
  std::unique_ptr<harness::World> world;
  try {
    prepare_collectives(invocation);
    validate_phase_options(invocation);
    // Test seams, with the launcher's rank (a singleton is rank 0): "init" fires before MPI starts.
    harness::configure_faults(std::max(0, harness::launcher_rank()));
    harness::enter_phase("init");
    const auto startup = harness::Deadline::after(invocation.common.timeouts.env_s);  // bootstrap: env's timeout
    world = std::make_unique<harness::World>(&argc, &argv, startup);
  } catch (const harness::Error& e) {
    // Every task meets the same launch problem: one line from the launcher's rank 0 is enough.
    if (e.exit_code() != harness::ExitCode::usage || is_launcher_rank_zero()) std::cerr << "gpuscale: " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  }
  std::unique_ptr<Job> job;
  try {
    harness::configure_faults(world->rank());  // test seams; a malformed value is a UsageError
    job = std::make_unique<Job>(invocation, *world);
    const auto phases = phases_for(invocation.command);
    for (std::size_t i = 0; i < phases.size(); ++i) {
      harness::enter_phase(phases[i].name);
      job->begin_phase(phases[i].name, i + 1, phases.size());
      phases[i].run(*job);
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
