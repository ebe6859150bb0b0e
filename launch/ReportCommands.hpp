#pragma once
// The commands that read saved runs and need no GPU and no MPI (needs_world = false): `report`,
// `compare` and `baseline`. MPI is never initialised for them.
#include "launch/Cli.hpp"

namespace gpuscale::launch {

// Dispatches `report`, `compare` or `baseline`; returns the exit code: 0 ok, 1 verdict failed / regression,
// 2 bad usage or an unreadable, malformed or other-schema file (one line on stderr).
int run_offline_command(const Invocation& invocation);

}  // namespace gpuscale::launch
