#pragma once
// The subcommands, in one explicit table: what each is called, what it says in --help, which
// options it adds, which phases it runs (their table: PhaseTable.hpp) or, for a command that reads saved
// runs, what runs instead.
#include <span>
#include <string_view>
#include <vector>

#include <cxxopts.hpp>

#include "launch/base/PhaseSpec.hpp"

namespace gpuscale::launch {

struct Invocation;

struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  std::string_view usage;     // after "gpuscale "
  std::string_view examples;  // lines, each a full command
  // The phases it runs under MPI on every rank, in order, by name (PhaseTable.hpp); none: it reads
  // saved runs, without MPI.
  std::span<const std::string_view> phases;
  // Its options; nullptr: those of its phases (PhaseSpec::add_options).
  void (*add_options)(cxxopts::Options&);
  // A command without phases: what runs instead (ReportCommands.hpp), returning the exit code.
  int (*run_offline)(const Invocation&) = nullptr;
  // The whole-job run: keeps a time budget (RunBudget.hpp), plans its phases for it, and prints the
  // preflight's one screen instead of each phase's tables.
  bool whole_job = false;
  bool judges_one_run = true;  // --baseline applies (a live run or `report`; not compare or baseline)
  // A command without phases: what it does with saved runs instead of what a refused option asks, for
  // the refusal's line ("it rebuilds the outputs of a saved run").
  std::string_view offline_work = {};

  bool needs_world() const { return !phases.empty(); }  // runs under MPI on every rank
};

std::span<const CommandSpec> commands();
const CommandSpec* find_command(std::string_view name);
// The command called `name`; one that is not in the table throws harness::UsageError naming them all.
const CommandSpec& command_named(std::string_view name);
// The command that runs when argv[1] names none (or starts with '-'): the first of the table.
const CommandSpec& default_command();
// Adds the command's options to `options` (CommandSpec::add_options).
// The phases `command` runs, in order (CommandSpec::phases); none for a command that reads saved runs.
// A command not in the table throws harness::UsageError.
std::vector<PhaseSpec> phases_for(std::string_view command);

// Runs a command without phases (`report`, `compare` or `baseline`: CommandSpec::run_offline);
// returns the exit code: 0 ok, 1 verdict failed / regression, 2 bad usage or an unreadable,
// malformed or other-schema file (one line on stderr).
int run_offline_command(const Invocation& invocation);

void add_command_options(const CommandSpec& command, cxxopts::Options& options);

}  // namespace gpuscale::launch
