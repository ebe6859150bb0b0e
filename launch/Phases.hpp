#pragma once
// The phases, in one table (kPhases in Phases.cpp): each phase's name, how its options are read and
// checked, its plan, its run function and its GPU policy. A command is a list of these names
// (Commands.cpp); nothing else lists phases or matches command names.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/RunHooks.hpp"
#include "launch/Cli.hpp"

namespace gpuscale::launch {

class Job;
struct RunPlan;

// What a phase's plan is resolved from (RunPlan.cpp): the command line, the profile already in the
// plan, and the backend.
struct PlanInputs {
  const Invocation& invocation;
  bool cpu_backend;
  bool whole_job;  // the command is the whole-job run (CommandSpec::whole_job)
};

struct PhaseSpec {
  std::string_view name;
  // Its part of the RunPlan, from the command line and the profile (nullptr: it plans nothing). Pure;
  // bad input throws harness::UsageError with one line.
  void (*plan)(RunPlan& plan, const PlanInputs& inputs);
  // Before MPI starts, on every rank (nullptr: nothing): options the plan does not hold, checked
  // (UsageError), and what must be set up before MPI and NCCL start.
  void (*before_mpi)(const Invocation& invocation);
  // Collective: runs the phase on every rank with the Job's plan.
  void (*run)(Job& job);
  bool needs_gpu_work;  // skipped when an env check blocks GPU work (Job::gpu_work_blocked)
  // Runs beside another process on a GPU (burn: its sustained figure is what the sharing costs);
  // skipped only when GPU work is impossible.
  bool runs_on_shared_gpu;
  // Its share of the whole-job run's budget, relative to the others' (RunBudget.hpp): what the phase
  // takes in a healthy run of either profile.
  double budget_weight;
};

// Every phase, in the order the whole-job run runs them.
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
