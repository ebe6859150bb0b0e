#pragma once
// What a phase is, in one place: a PhaseSpec, which each phase's folder phases/NAME/run/ defines
// as `phases::NAME::kPhase` and results/base/PhaseRegistry.def lists (the table: PhaseTable.hpp). Everything the
// launcher knows of a phase (its options, plan, start-up line, fit to the job, checks before MPI, run
// function, GPU policy, budget weight, timeout) is read from here.
#include <string>
#include <string_view>

#include <cxxopts.hpp>

#include "launch/base/Profile.hpp"
#include "results/base/PlanRecord.hpp"

namespace gpuscale::launch {

class PhaseDriver;
struct Invocation;
struct RunPlan;
struct JobShape;

// What a phase's plan is resolved from (RunPlan.cpp): the command line, the profile, and the backend.
struct PlanInputs {
  const Invocation& invocation;
  const Profile& profile;
  bool cpu_backend;
  bool whole_job;  // the command is the whole-job run (CommandSpec::whole_job)
};

struct PhaseSpec {
  std::string_view name;
  // Its own command, `gpuscale NAME` (env's, then it): the help's line and examples (CommandSpec).
  std::string_view summary;
  std::string_view examples;
  // The options of the phase's own command, `gpuscale NAME` (nullptr: none).
  void (*add_options)(cxxopts::Options& options);
  // Its part of the RunPlan (nullptr: it plans nothing): `plan.set(name, Plan{...})`, read back with
  // `plan.get<Plan>(name)`. Pure; bad input throws harness::UsageError with one line.
  void (*plan)(RunPlan& plan, const PlanInputs& inputs);
  // Its part of the start-up line ("burn bf16 matmul 128 for 2 s"); set where `plan` is.
  std::string (*describe)(const RunPlan& plan);
  // "" when its plan fits the job's shape, else one line naming the value that does not (PlanFit.hpp);
  // nullptr: any plan fits.
  std::string (*misfit)(const RunPlan& plan, const JobShape& shape);
  // What its plan measures on a job of this shape, for the coverage list (PlanRecord.hpp): its items
  // and the values its figures' labels can take, appended to `out`. Pure; nullptr: nothing planned.
  void (*planned)(const RunPlan& plan, const JobShape& shape, results::RunPlanRecord& out);
  // Before MPI starts, on every rank (nullptr: nothing): options the plan does not hold, checked
  // (UsageError), and what must be set up before MPI and NCCL start.
  void (*before_mpi)(const Invocation& invocation);
  // Collective: runs the phase on every rank with the Job's plan, keeps what it returned and marks it
  // done: run_phase<run_NAME_phase, keep> (PhaseRun.hpp), the phase's run taking a PhaseContext.
  void (*run)(PhaseDriver& driver);
  bool needs_gpu_work;  // skipped when an env check blocks GPU work (Job::gpu_work_blocked)
  // Runs beside another process on a GPU (burn: its sustained figure is what the sharing costs);
  // skipped only when GPU work is impossible.
  bool runs_on_shared_gpu;
  // The report's projection is fitted from its records: rebuilt after it (ProjectionUpdate.hpp).
  bool feeds_projection = false;
  // Its share of the whole-job run's budget, relative to the others' (RunBudget.hpp): what the phase
  // takes in a healthy run of either profile.
  double budget_weight;
  // The default seconds any single wait of the phase may take (--timeout PHASE=S; Timeouts.hpp), with
  // the worst plausible case it must fit written beside it.
  double timeout_s;
};

}  // namespace gpuscale::launch
