#pragma once
// The commands that read saved runs and need no GPU and no MPI (no phases: CommandSpec::run_offline):
// `report`, `compare` and `baseline` (BaselineCommand.hpp). MPI is never initialised for them.
#include "launch/Cli.hpp"

namespace gpuscale::launch {

// The command's own work; throw UsageError for bad input (run_offline_command prints it).
int report_command(const Invocation& invocation);
int compare_command(const Invocation& invocation);

// Runs the command's CommandSpec::run_offline (`report`, `compare` or `baseline`); returns the exit code: 0 ok, 1 verdict failed / regression,
// 2 bad usage or an unreadable, malformed or other-schema file (one line on stderr).
int run_offline_command(const Invocation& invocation);

}  // namespace gpuscale::launch
