#include "launch/Phases.hpp"

#include <iostream>

#include "harness/Error.hpp"
#include "launch/CollectivesPhase.hpp"
#include "launch/ComputePhase.hpp"
#include "launch/EnvPhase.hpp"
#include "launch/TrainPhase.hpp"

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

int run_command(const Invocation& invocation, int argc, char** argv) {
  std::unique_ptr<harness::World> world;
  try {
    prepare_collectives(invocation);
    world = std::make_unique<harness::World>(&argc, &argv);
  } catch (const harness::Error& e) {
    // Every task meets the same launch problem: one line from the launcher's rank 0 is enough.
    if (e.exit_code() != harness::ExitCode::usage || is_launcher_rank_zero()) std::cerr << "gpuscale: " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  }
  try {
    Job job(invocation, *world);
    const auto phases = phases_for(invocation.command);
    for (std::size_t i = 0; i < phases.size(); ++i) {
      job.begin_phase(phases[i].name, i + 1, phases.size());
      phases[i].run(job);
    }
    return job.finish();
  } catch (const harness::UsageError& e) {
    // Raised alike on every rank (validated collectively), so every rank can leave cleanly.
    if (world->rank() == 0) std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::usage);
  } catch (const harness::Error& e) {
    std::cerr << harness::error_location() << " " << e.what() << '\n';
    world->abort(static_cast<int>(e.exit_code()));
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " unexpected error: " << e.what() << '\n';
    world->abort(static_cast<int>(harness::ExitCode::runtime));
  }
}

}  // namespace gpuscale::launch
