#include "launch/Phases.hpp"

#include <iostream>

#include "harness/Activity.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/Watchdog.hpp"
#include "launch/EnvPhase.hpp"
#include "launch/FailurePath.hpp"

namespace gpuscale::launch {

std::vector<Phase> phases_for(const std::string& command) {
  const Phase env{"env", run_env_phase};
  if (command == "env") return {env};
  // `run`: the environment first; further phases join this list as they are built.
  return {env};
}

int run_command(const Invocation& invocation, int argc, char** argv) {
  harness::install_signal_handlers();
  const harness::Watchdog watchdog;  // the last resort behind every deadline (Watchdog.hpp)
  std::unique_ptr<harness::World> world;
  try {
    world = std::make_unique<harness::World>(&argc, &argv);
  } catch (const harness::Error& e) {
    std::cerr << "gpuscale: " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  }
  std::unique_ptr<Job> job;
  try {
    harness::configure_faults(world->rank());  // test seams; a malformed value is a UsageError
    job = std::make_unique<Job>(invocation, *world);
    for (const auto& phase : phases_for(invocation.command)) {
      harness::enter_phase(phase.name);
      phase.run(*job);
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
