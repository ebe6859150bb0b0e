#pragma once
// The driver: a command's phases run under MPI, from the agreement on the command line to the last
// report (the phases: PhaseTable.hpp; a command's: Commands.hpp).
#include <string>

#include "launch/base/Invocation.hpp"

namespace gpuscale::launch {

// Runs the command's phases under MPI and returns the process exit code. Errors: usage -> 2 on every
// rank; runtime faults -> one line "[rank R host H] ..." and the whole job ends with 3.
// `usage_error`: this rank's command line was refused (the invocation is then empty). Under a
// launcher the ranks still start MPI, to agree on one line from the first rank that found an error
// and on the command itself (CommandAgreement.hpp), before any work.
int run_command(const Invocation& invocation, int argc, char** argv, std::string usage_error = "");

}  // namespace gpuscale::launch
