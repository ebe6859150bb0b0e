#pragma once
// Before any work, every rank of the job agrees that it was started with the same command and that
// none refused its command line. A launch can give ranks different command lines (MPMD:
// `mpirun -np 1 gpuscale env : -np 1 gpuscale collectives`) or different environments; a rank that
// refused its own is otherwise silent (only the launcher's "exit code 2").
#include <string>

#include "harness/Deadline.hpp"
#include "harness/World.hpp"
#include "launch/base/Invocation.hpp"

namespace gpuscale::launch {

// Collective. `usage_error`: this rank's one-line refusal, empty when its command line parsed.
// Returns true when every rank parsed the same command (Invocation::fingerprint) with the same node
// layout variables (GPUSCALE_TEST_RANKS_PER_NODE, GPUSCALE_TEST_SHARE_GPU, set or unset alike).
// Otherwise rank 0 prints one line, "gpuscale: error: ...": the usage error of the lowest rank that has
// one (with its rank and host where that is not rank 0), or the ranks whose layout variables, else
// whose command, differ from rank 0's; every rank returns false and exits 2.
bool agree_on_command(const harness::World& world, const Invocation& invocation, const std::string& usage_error,
                      const harness::Deadline& deadline);

}  // namespace gpuscale::launch
