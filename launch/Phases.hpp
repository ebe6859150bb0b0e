#pragma once
// The phases, in one table built from results/schema/PhaseRegistry.def: each phase's PhaseSpec
// (PhaseSpec.hpp), defined in its folder launch/phases/NAME/. A command is a list of these names
// (Commands.cpp); nothing else lists phases or matches command names.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/RunHooks.hpp"
#include "launch/Cli.hpp"
#include "launch/PhaseSpec.hpp"

namespace gpuscale::launch {

// Every phase, in the registry's order: the order the whole-job run runs them.
std::span<const PhaseSpec> phase_table();
// The phase called `name`, or nullptr.
const PhaseSpec* find_phase_spec(std::string_view name);

// The phases `command` runs, in order (CommandSpec::phases); none for a command that reads saved runs.
// A command not in the table throws harness::UsageError.
std::vector<PhaseSpec> phases_for(std::string_view command);

// The job's progress line, clock and budget for the current phase, as a workload's run reports to them.
harness::RunHooks run_hooks(Job& job);

// Runs the command's phases under MPI and returns the process exit code. Errors: usage -> 2 on every
// rank; runtime faults -> one line "[rank R host H] ..." and the whole job ends with 3.
// `usage_error`: this rank's command line was refused (the invocation is then empty). Under a
// launcher the ranks still start MPI, to agree on one line from the first rank that found an error
// and on the command itself (CommandAgreement.hpp), before any work.
int run_command(const Invocation& invocation, int argc, char** argv, std::string usage_error = "");

}  // namespace gpuscale::launch
