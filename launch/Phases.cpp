#include "launch/Phases.hpp"

#include <iostream>

#include "harness/Error.hpp"
#include "launch/ComputePhase.hpp"
#include "launch/EnvPhase.hpp"
#include "launch/TrainPhase.hpp"

namespace gpuscale::launch {

std::vector<Phase> phases_for(const std::string& command) {
  const Phase env{"env", run_env_phase};
  const Phase compute{"compute", run_compute_phase};
  if (command == "env") return {env};
  const Phase train{"train", run_train_phase};
  if (command == "compute") return {compute};
  if (command == "train") return {train};
  // `run`: the environment first; further phases join this list as they are built.
  return {env, compute, train};
}

int run_command(const Invocation& invocation, int argc, char** argv) {
  std::unique_ptr<harness::World> world;
  try {
    world = std::make_unique<harness::World>(&argc, &argv);
  } catch (const harness::Error& e) {
    std::cerr << "gpuscale: " << e.what() << '\n';
    return static_cast<int>(e.exit_code());
  }
  try {
    Job job(invocation, *world);
    for (const auto& phase : phases_for(invocation.command)) phase.run(job);
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
