#pragma once
// The command line: one executable, subcommands, cxxopts. Parsing is pure (no MPI, no files
// touched), so tests call it directly. Bad input throws harness::UsageError with one line.
#include "launch/base/Invocation.hpp"

namespace gpuscale::launch {

// argv[1] names the command unless it starts with '-' (then the command is `run`).
Invocation parse_command_line(int argc, const char* const* argv);

// Whether this process should print messages that every rank would print alike (usage errors come
// before MPI exists): launcher-provided rank 0, or no launcher.
bool is_launcher_rank_zero();

}  // namespace gpuscale::launch
