#include "launch/Phases.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "harness/Activity.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/Watchdog.hpp"
#include "launch/Cli.hpp"
#include "launch/CommandAgreement.hpp"
#include "launch/Commands.hpp"
#include "launch/FailurePath.hpp"
#include "launch/Job.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/RunPlanning.hpp"
#include "launch/SeamPlaces.hpp"
#include "launch/base/RunPlan.hpp"
#include "probes/SlurmProbe.hpp"

namespace gpuscale::launch {

namespace {

// Every phase's options are checked before MPI starts and before any output, so bad input is one
// line and exit 2 on every rank (the Job resolves the plan again, with the backend known).
void validate_phase_options(const Invocation& invocation) {
  resolve_run_plan(invocation, invocation.common.device == "cpu");
  for (const auto& phase : phases_for(invocation.command))
    if (phase.before_mpi) phase.before_mpi(invocation);
}

}  // namespace

int run_command(const Invocation& invocation, int argc, char** argv, std::string usage_error) {
  harness::install_signal_handlers();
  const harness::Watchdog watchdog;  // the last resort behind every deadline (Watchdog.hpp)
  std::unique_ptr<harness::World> world;
  const auto startup = harness::Deadline::after(invocation.common.timeouts.bootstrap_s());
  try {
    if (usage_error.empty()) {
      try {
        validate_phase_options(invocation);
        // Test seams, with the launcher's rank (a singleton is rank 0): "init" fires before MPI starts.
        harness::configure_faults(std::max(0, harness::launcher_rank()), seam_places());
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
    // A launch that cannot form one world makes MPI_Init abort with pages of text: name it first.
    if (const std::string problem = probes::launch_problem(); !problem.empty()) throw harness::UsageError(problem);
    world = std::make_unique<harness::World>(&argc, &argv, startup);
  } catch (const harness::Error& e) {
    // Every task meets the same launch problem: one line from the launcher's rank 0 is enough.
    if (e.exit_code() != harness::ExitCode::usage || is_launcher_rank_zero()) std::cerr << "gpuscale: " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  }
  try {
    // A malformed emulation variable is this rank's usage error (World::emulation_problem), refused alike.
    if (usage_error.empty()) usage_error = world->emulation_problem();
    if (!agree_on_command(*world, invocation, usage_error, startup)) return static_cast<int>(harness::ExitCode::usage);
  } catch (const harness::Error& e) {
    end_job_after_error(*world, nullptr, e);
  }
  std::unique_ptr<Job> job;
  try {
    harness::configure_faults(world->rank(), seam_places());  // test seams; a malformed value is a UsageError
    job = std::make_unique<Job>(invocation, *world);
    const auto phases = phases_for(invocation.command);
    for (std::size_t i = 0; i < phases.size(); ++i) {
      const std::string name(phases[i].name);
      harness::enter_phase(name);
      job->begin_phase(name, i + 1, phases.size());
      const auto& blocked = job->gpu_work_blocked(phases[i].runs_on_shared_gpu);
      if (phases[i].needs_gpu_work && !blocked.empty()) {
        job->progress("skipped: " + blocked);
        job->phase_skipped(name, blocked);
        continue;
      }
      phases[i].run(*job);
      job->check_tenancy(name);  // the last one is the run's end
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
