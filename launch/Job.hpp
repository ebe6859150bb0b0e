#pragma once
// One run under MPI: the world, this rank's backend, and rank 0's report, written after every phase.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "harness/BackendSelect.hpp"
#include "harness/BudgetGate.hpp"
#include "harness/RunHooks.hpp"
#include "harness/World.hpp"
#include "launch/Progress.hpp"
#include "launch/RunBudget.hpp"
#include "launch/base/Invocation.hpp"
#include "launch/base/PhaseContext.hpp"
#include "launch/base/PhaseDriver.hpp"
#include "launch/base/RunPlan.hpp"
#include "results/report/Expectations.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::launch {

class TenancyWatch;

class Job final : public PhaseDriver {
 public:
  // Collective. Validates output paths and the --expect file on rank 0 (UsageError on every rank if
  // one is unwritable or malformed), selects and binds the backend, resolves the plan for that
  // backend and prints it (the start-up line). Rank 0 then writes a first set of outputs that reads
  // "not finished".
  Job(const Invocation& invocation, harness::World& world);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  const Invocation& invocation() const { return invocation_; }
  const CommonOptions& options() const { return invocation_.common; }
  harness::World& world() override { return world_; }
  harness::Backend& backend() { return *selection_.backend; }
  // Seconds any single wait of the current phase may take (--timeout, per phase; before and after
  // the phases: env's). Every phase reads its timeout here, and only here.
  double timeout_s() const { return options().timeouts.for_phase(phase_); }
  harness::Deadline deadline() const { return harness::Deadline::after(timeout_s()); }
  // What every phase runs (sizes, iteration counts) and the time budget, resolved from the command
  // line and the profile (--quick, backend); the same on every rank.
  const RunPlan& plan() const { return plan_; }

  // The current phase's share of the run's budget (RunBudget.hpp): bounded in the whole-job run,
  // unbounded in the single-phase commands. Every rank gets the same kind of gate.
  harness::BudgetGate budget_gate() const;
  // Rank 0 (others: nothing): an item of the current phase ("allreduce", a shape) took `seconds`;
  // the longest is named when the budget runs out.
  void budget_item(const std::string& what, double seconds);
  // Rank 0 (others: nothing): what the current phase left out once its share was spent, one line.
  void budget_dropped(const std::string& what);
  // Seconds since the run started (rank 0's clock on rank 0).
  double run_elapsed_s() const;

  // Every rank, from the env phase: its own env record, whose listed processes the checks at the
  // phase boundaries take as known (TenancyWatch.hpp).
  void watch_tenancy(const results::RankEnv& own) override;
  // Collective, at the end of every phase that ran (nothing before env's watch_tenancy).
  void check_tenancy(const std::string& phase);
  // Local: processes a sampler listed on this rank's GPU during the current phase.
  void tenancy_seen(const std::vector<results::GpuProcess>& processes);

  // What the current phase's run may use (PhaseContext.hpp), built as it begins; it refers to this
  // Job, which outlives it.
  PhaseContext phase_context() override;

  // Rank 0 only: the report every phase adds to.
  results::RunReport& report() override { return report_; }
  // Rank 0: records the phase as completed, rebuilds the projection after a phase that feeds it
  // (PhaseSpec::feeds_projection), recomputes the verdict and rewrites the outputs, marked not
  // complete (verdict INCOMPLETE) until finish() writes the last set.
  void phase_done(const std::string& phase) override;
  // Every rank: the env phase found checks that stop GPU work (the same reasons on every rank).
  // `shared`: another process shares a GPU (results::GpuBlock::shared_gpu or worse); `impossible`: NCCL
  // or the GPU work cannot run at all. A phase is skipped with the reason that applies to it (Phase).
  // Empty: nothing blocks it.
  void block_gpu_work(std::string shared, std::string impossible) override {
    gpu_work_blocked_ = std::move(shared);
    gpu_work_impossible_ = std::move(impossible);
  }
  const std::string& gpu_work_blocked(bool runs_on_shared_gpu) const {
    return runs_on_shared_gpu ? gpu_work_impossible_ : gpu_work_blocked_;
  }
  // Rank 0: records the phase as skipped with `reason` and rewrites the JSON file.
  void phase_skipped(const std::string& phase, const std::string& reason);
  // Rank 0: prints the console report to stdout. Returns the job's exit code (0 or 1), the same on
  // every rank (collective).
  int finish();
  // Rank 0, error path: records why the run ended early (interrupted for exit code 4), fails the
  // verdict and rewrites the outputs with what finished. Never throws (a write failure is printed).
  void record_failure(const results::RunFailure& failure) noexcept;
  // Rank 0's deputy, once it judged rank 0 stopped or dead on this host: rank 0 cannot record its own
  // failure, so the deputy adds `failure` to the --json file rank 0 wrote last (only where that
  // process wrote it: its output set names rank 0's PID), then rewrites every output from it as
  // `gpuscale report` would. Without --json (nothing to read back) nothing is written. Never throws.
  void record_failure_for_root(const results::RunFailure& failure) noexcept;
  // Progress on stderr from rank 0 unless --quiet: the phase (i of n), a step, elapsed and ETA.
  void begin_phase(const std::string& phase, std::size_t index, std::size_t count);
  void progress(const std::string& step, std::size_t done = 0, std::size_t total = 0);

 private:
  void write_outputs();
  // Rank 0, on the watchdog's thread (or the main thread naming dead peers): records its line into
  // the report last written, unless that already holds a failure other than an interruption (a
  // death explains the launcher's SIGTERM). `dead_ranks`, when not empty, are the failure's cause.
  // Never waits for the main thread for long; never throws.
  void record_last_words(int exit_code, const std::string& line, const std::vector<int>& dead_ranks) noexcept;

  Invocation invocation_;
  harness::World& world_;
  harness::BackendSelection selection_;
  results::RunReport report_;
  // The whole-job run's budget (RunBudget.hpp), rank 0's record of it copied into the report at each
  // write; absent for a single phase's command.
  std::optional<RunBudget> budget_;
  results::Expectations expectations_;  // rank 0
  RunPlan plan_;
  std::unique_ptr<Progress> progress_;
  double started_s_;
  std::string phase_;  // the phase begun last; empty before the first
  int writes_ = 0;     // rank 0: output sets written so far (ReportFiles.hpp: output_set_id)
  // The report as last written, for the watchdog's last words (which must not read report_ while
  // the main thread may change it); the mutex also keeps the two threads' writes apart.
  std::timed_mutex write_mutex_;
  std::shared_ptr<const results::RunReport> written_;
  std::string gpu_work_blocked_, gpu_work_impossible_;
  std::unique_ptr<TenancyWatch> tenancy_;
};

// The job's progress line, clock and budget for the current phase, as a workload's run reports to them.
harness::RunHooks run_hooks(Job& job);

}  // namespace gpuscale::launch
