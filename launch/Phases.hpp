#pragma once
// The explicit list of phases each command runs, in order.
#include <string>
#include <vector>

#include "launch/Job.hpp"

namespace gpuscale::launch {

struct Phase {
  const char* name;
  void (*run)(Job& job);
  bool needs_gpu_work = true;  // skipped when an env check blocks GPU work (Job::gpu_work_blocked)
  // Runs beside another process on a GPU (burn: its sustained figure is what the sharing costs);
  // skipped only when GPU work is impossible.
  bool runs_on_shared_gpu = false;
};

std::vector<Phase> phases_for(const std::string& command);

// Runs the command's phases under MPI and returns the process exit code. Errors: usage -> 2 on every
// rank; runtime faults -> one line "[rank R host H] ..." and the whole job ends with 3.
// `usage_error`: this rank's command line was refused (the invocation is then empty). Under a
// launcher the ranks still start MPI, to agree on one line from the first rank that found an error
// and on the command itself (CommandAgreement.hpp), before any work.
int run_command(const Invocation& invocation, int argc, char** argv, std::string usage_error = "");

}  // namespace gpuscale::launch
