#include "launch/Job.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>

#include "harness/Error.hpp"
#include "harness/Watchdog.hpp"
#include "judge/Judge.hpp"
#include "launch/Commands.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/PlanFit.hpp"
#include "launch/ProjectionUpdate.hpp"
#include "launch/ReportFiles.hpp"
#include "launch/RunBudget.hpp"
#include "launch/RunPlanning.hpp"
#include "launch/TenancyWatch.hpp"
#include "launch/base/DpDevices.hpp"
#include "results/base/Utf8.hpp"
#include "results/report/ConsoleReporter.hpp"
#include "results/report/JsonReporter.hpp"

#ifndef GPUSCALE_VERSION
#define GPUSCALE_VERSION "0.0.0"
#endif

namespace gpuscale::launch {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Rank 0 checks every output path and the --expect file before any work; every rank learns the verdict.
void check_inputs(const CommonOptions& o, const harness::World& world, const harness::Deadline& deadline,
                  results::Expectations& expectations) {
  std::string problem;
  if (world.rank() == 0) {
    try {
      check_report_paths(o);
      expectations = load_expectations(o);
    } catch (const harness::UsageError& e) {
      problem = e.what();
    }
  }
  problem = world.broadcast_from_root(problem, deadline);
  if (!problem.empty()) throw harness::UsageError(problem);
}

// Values that only the job's shape can judge (PlanFit.hpp), before any work or output: rank 0
// judges, since it alone knows the devices its DP would drive, and every rank learns the verdict.
void check_plan_fits(const RunPlan& plan, const harness::World& world, bool cpu_backend,
                     const harness::Deadline& deadline) {
  std::string problem;
  if (world.rank() == 0) {
    const JobShape shape{world.size(), world.node_count(), dp_device_limit(cpu_backend, world.local_size())};
    problem = plan_misfit(plan, shape);
  }
  problem = world.broadcast_from_root(problem, deadline);
  if (!problem.empty()) throw harness::UsageError(problem);
}

// The PID part of an output set id "START-PID-N" and N; false when ID is not of that form.
bool parse_output_set(const std::string& id, long& pid, int& write_number) {
  const auto last = id.rfind('-');
  if (last == std::string::npos || last == 0) return false;
  const auto before = id.rfind('-', last - 1);
  if (before == std::string::npos) return false;
  try {
    pid = std::stol(id.substr(before + 1, last - before - 1));
    write_number = std::stoi(id.substr(last + 1));
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace

Job::Job(const Invocation& invocation, harness::World& world)
    : invocation_(invocation), world_(world), started_s_(now_s()) {
  check_inputs(options(), world_, deadline(), expectations_);
  selection_ = harness::select_backend(harness::parse_device_choice(options().device), world_, deadline());
  plan_ = resolve_run_plan(invocation_, selection_.backend->kind() == harness::BackendKind::cpu);
  check_plan_fits(plan_, world_, selection_.backend->kind() == harness::BackendKind::cpu, deadline());
  progress_ = std::make_unique<Progress>(std::cerr, world_.rank() == 0 && !options().quiet, stderr_is_terminal(),
                                         plan_.profile.budget_s, now_s);
  progress_->step("plan " + describe(plan_));
  if (selection_.fell_back && world_.local_rank() == 0) {
    std::cerr << "\n*** WARNING " << harness::error_location()
              << ": no GPU is visible; running on the CPU BACKEND. Figures are not GPU figures. ***\n\n";
  }
  report_.tool_version = GPUSCALE_VERSION;
  report_.command_line = results::valid_utf8(invocation.command_line);
  report_.start_time = utc_now();
  report_.world_size = world_.size();
  report_.node_count = world_.node_count();
  report_.emulation = world_.emulation();
  if (invocation.common.straggler_threshold) report_.straggler_threshold = *invocation.common.straggler_threshold;
  report_.complete = false;
  const bool cpu = selection_.backend->kind() == harness::BackendKind::cpu;
  report_.plan = plan_record(plan_, invocation_.command,
                             JobShape{world_.size(), world_.node_count(), dp_device_limit(cpu, world_.local_size())},
                             options().require_complete);
  if (command_named(invocation_.command).whole_job) {
    std::vector<std::string> names;
    for (const auto& p : phases_for(invocation_.command)) names.emplace_back(p.name);
    budget_.emplace(plan_.profile.budget_s, names);
  }
  // A file from an earlier run at the same path must not stand for this one: it is replaced now by
  // one that reads "not finished" until this job's last write.
  if (world_.rank() == 0) {
    write_outputs();
    harness::set_last_words([this](int exit_code, const std::string& line, const std::vector<int>& dead) {
      record_last_words(exit_code, line, dead);
    });
  } else {
    // Another rank's last words matter only when it names rank 0 dead: rank 0 cannot record that.
    harness::set_last_words(
        [this](int exit_code, const std::string& line, const std::vector<int>& dead) {
          if (std::find(dead.begin(), dead.end(), 0) != dead.end())
            record_failure_for_root({exit_code, results::valid_utf8(line), 0, dead});
        },
        false);
  }
}

Job::~Job() { harness::set_last_words(nullptr); }

void Job::begin_phase(const std::string& phase, std::size_t index, std::size_t count) {
  phase_ = phase;
  if (world_.rank() == 0 && budget_) budget_->started(phase, run_elapsed_s());
  progress_->phase(phase, index, count);
}

void Job::progress(const std::string& step, std::size_t done, std::size_t total) {
  progress_->step(step, done, total);
}

harness::BudgetGate Job::budget_gate() const {
  if (!plan_.profile.budget_s || !budget_) return {};
  // Rank 0 decides for every rank (BudgetGate), on its clock.
  const double left_s = world_.rank() == 0 ? budget_->left_s(phase_, run_elapsed_s()) : 0;
  return harness::BudgetGate(world_, harness::Deadline::after(left_s), timeout_s());
}

void Job::budget_item(const std::string& what, double seconds) {
  if (world_.rank() == 0 && budget_) budget_->item(phase_, what, seconds);
}

void Job::budget_dropped(const std::string& what) {
  if (world_.rank() != 0 || !budget_) return;
  budget_->dropped(phase_, what);
  progress("dropped (budget spent): " + what);
}

void Job::watch_tenancy(const results::RankEnv& own) { tenancy_ = std::make_unique<TenancyWatch>(own); }

void Job::check_tenancy(const std::string& phase) {
  if (tenancy_)
    tenancy_->at_boundary(phase, {world(), timeout_s(), report_, [this](const std::string& line) { progress(line); }});
}

void Job::tenancy_seen(const std::vector<results::GpuProcess>& processes) {
  if (tenancy_) tenancy_->seen_during_phase(processes);
}

double Job::run_elapsed_s() const { return now_s() - started_s_; }

void Job::write_outputs() {
  const std::lock_guard lock(write_mutex_);
  report_.elapsed_s = now_s() - started_s_;
  if (budget_) report_.budget = budget_->record();
  apply_verdict(report_, expectations_);
  write_report_files(report_, options(), expectations_, ++writes_);
  written_ = std::make_shared<const results::RunReport>(report_);
}

void Job::record_last_words(int exit_code, const std::string& line, const std::vector<int>& dead_ranks) noexcept {
  try {
    std::unique_lock lock(write_mutex_, std::chrono::seconds(1));
    if (!lock || !written_) return;
    const bool interrupted =
        written_->failure && written_->failure->exit_code == static_cast<int>(harness::ExitCode::interrupted);
    if (written_->failure && !(interrupted && !dead_ranks.empty())) return;
    results::RunReport report = *written_;
    report.failure = results::RunFailure{exit_code, results::valid_utf8(line),
                                         dead_ranks.empty() ? world_.rank() : dead_ranks.front(), dead_ranks};
    report.interrupted = exit_code == static_cast<int>(harness::ExitCode::interrupted);
    report.elapsed_s = now_s() - started_s_;
    apply_verdict(report, expectations_);
    write_report_files(report, options(), expectations_, ++writes_);
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " could not write the partial results: " << e.what() << '\n';
  }
}

PhaseContext Job::phase_context() {
  return PhaseContext{
      .phase = phase_,
      .world = world_,
      .backend = backend(),
      .run_plan = plan_,
      .timeout_s = timeout_s(),
      .hooks = run_hooks(*this),
      .tenancy_seen = [this](const std::vector<results::GpuProcess>& processes) { tenancy_seen(processes); },
      .ranks = report_.ranks,
      .backend_fell_back = selection_.fell_back,
      .cuda_unusable = selection_.cuda_unusable,
      // The current phase is env, the only one that calls it: its family is the phase's own.
      .env_gathered =
          [this](const std::vector<results::RankEnv>& ranks) {
            report_.ranks = ranks;
            return judge::judge_family(phase_, report_).checks;
          },
  };
}

void Job::phase_done(const std::string& phase) {
  if (world_.rank() != 0) return;
  if (const auto* spec = find_phase_spec(phase); spec && spec->feeds_projection) update_projection(report_, plan_);
  report_.phases_completed.push_back(phase);
  if (budget_) budget_->ended(phase, run_elapsed_s());
  write_outputs();
}

void Job::phase_skipped(const std::string& phase, const std::string& reason) {
  if (world_.rank() != 0) return;
  report_.phases_skipped.push_back({phase, reason});
  if (budget_) budget_->ended(phase, run_elapsed_s());
  write_outputs();
}

namespace {

// Rank 0: the failure that another process of this job (the deputy, which judged rank 0 stopped
// while rank 0 could not write) already put into --json. Rank 0, resumed by the launcher's kill
// sequence, meets its own long-past deadline and has no MPI left to read the judgement by.
std::optional<results::RunFailure> failure_written_by_judge(const std::string& json_path,
                                                            const results::RunReport& mine) {
  if (json_path.empty()) return std::nullopt;
  try {
    const auto written = results::read_report_file(json_path);
    long pid = 0;
    int number = 0;
    if (written.failure && written.start_time == mine.start_time && written.command_line == mine.command_line &&
        parse_output_set(written.output_set, pid, number) && pid != static_cast<long>(::getpid()))
      return written.failure;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

void Job::record_failure(const results::RunFailure& failure) noexcept {
  if (world_.rank() != 0) return;
  try {
    // The judge wrote its failure into every output file already. Rank 0, resumed by the launcher's
    // kill sequence, would only rewrite the same record while racing the SIGKILL that follows, and a
    // write the SIGKILL cuts short leaves its temp file in the user's folder.
    if (auto judged = failure_written_by_judge(options().json_path, report_)) {
      report_.failure = std::move(judged);
      return;
    }
    report_.failure = failure;
    report_.failure->message = results::valid_utf8(report_.failure->message);  // may quote a path or a host name
    report_.interrupted = report_.failure->exit_code == static_cast<int>(harness::ExitCode::interrupted);
    write_outputs();  // the verdict rules fail a run with a failure record
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " could not write the partial results: " << e.what() << '\n';
  }
}

void Job::record_failure_for_root(const results::RunFailure& failure) noexcept {
  const long root_pid = world_.peer_pid(0);
  if (world_.rank() == 0 || options().json_path.empty() || root_pid <= 0) return;
  try {
    auto report = results::read_report_file(options().json_path);
    long pid = 0;
    int written = 0;
    if (!parse_output_set(report.output_set, pid, written) || pid != root_pid) return;  // not this job's file
    // Rank 0 recorded its own failure before it ended the job (MPI_Abort): that is the cause.
    if (report.failure && report.failure->exit_code != static_cast<int>(harness::ExitCode::interrupted)) return;
    report.failure = failure;
    report.failure->message = results::valid_utf8(failure.message);
    report.interrupted = false;
    report.complete = false;
    results::Expectations expectations;
    try {
      expectations = load_expectations(options());
    } catch (const harness::UsageError&) {  // rank 0 read it at the start; judge without it if it is gone
    }
    apply_verdict(report, expectations);
    write_report_files(report, options(), expectations, written + 1);
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " could not write rank 0's failure: " << e.what() << '\n';
  }
}

int Job::finish() {
  int code = 0;
  phase_ = "finish";  // waits after the phases are bootstrap waits again (env's timeout)
  progress_->finish();
  if (world_.rank() == 0) {
    report_.complete = true;
    write_outputs();
    // The preflight (the default run and --quick) prints one screen; a phase's own command its tables.
    const auto view = command_named(invocation_.command).whole_job ? results::ConsoleView::summary : results::ConsoleView::full;
    results::ConsoleReporter(view).write(report_, std::cout);
    // The files hold the results; a console report lost on a full device is still a runtime error.
    code = !console_written() ? static_cast<int>(harness::ExitCode::runtime) : report_.verdict.passed ? 0 : 1;
  }
  world_.broadcast_bytes(&code, sizeof code, 0, deadline());
  return code;
}

harness::RunHooks run_hooks(Job& job) {
  return {job.budget_gate(), [&job](const std::string& step) { job.progress(step); },
          [&job] { return job.run_elapsed_s(); },
          [&job](const std::string& what, double seconds) { job.budget_item(what, seconds); },
          [&job](const std::string& what) { job.budget_dropped(what); }};
}

}  // namespace gpuscale::launch
