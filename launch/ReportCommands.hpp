#pragma once
// The commands that read saved runs and need no GPU and no MPI (no phases: CommandSpec::run_offline):
// `report`, `compare` and `baseline` (BaselineCommand.hpp). MPI is never initialised for them.
#include "launch/base/Invocation.hpp"

namespace gpuscale::launch {

// The command's own work; throw UsageError for bad input (Commands.hpp: run_offline_command prints it).
int report_command(const Invocation& invocation);
int compare_command(const Invocation& invocation);

}  // namespace gpuscale::launch
