#include "launch/Job.hpp"

#include <chrono>
#include <ctime>
#include <iostream>

#include "harness/Error.hpp"
#include "harness/Watchdog.hpp"
#include "launch/Phases.hpp"
#include "launch/ReportFiles.hpp"
#include "launch/RunBudget.hpp"
#include "launch/TenancyWatch.hpp"
#include "results/BudgetChecks.hpp"
#include "results/ConsoleReporter.hpp"
#include "results/Utf8.hpp"

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

}  // namespace

Job::Job(const Invocation& invocation, harness::World& world)
    : invocation_(invocation), world_(world), started_s_(now_s()) {
  check_inputs(options(), world_, deadline(), expectations_);
  selection_ = harness::select_backend(harness::parse_device_choice(options().device), world_,
                                       options().timeouts.longest_s());  // serves every phase
  plan_ = resolve_run_plan(invocation_, selection_.backend->kind() == harness::BackendKind::cpu);
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
  report_.complete = false;
  if (invocation_.command == "run") {
    std::vector<std::string> names;
    for (const auto& p : phases_for(invocation_.command)) names.emplace_back(p.name);
    report_.budget = plan_budget(plan_.profile.budget_s, names);
  }
  // A file from an earlier run at the same path must not stand for this one: it is replaced now by
  // one that reads "not finished" until this job's last write.
  if (world_.rank() == 0) {
    write_outputs();
    harness::set_last_words([this](int exit_code, const std::string& line) { record_last_words(exit_code, line); });
  }
}

Job::~Job() {
  if (world_.rank() == 0) harness::set_last_words(nullptr);
}

void Job::begin_phase(const std::string& phase, std::size_t index, std::size_t count) {
  phase_ = phase;
  progress_->phase(phase, index, count);
}

void Job::progress(const std::string& step, std::size_t done, std::size_t total) {
  progress_->step(step, done, total);
}

harness::BudgetGate Job::budget_gate() const {
  if (!plan_.profile.budget_s || invocation_.command != "run") return {};
  // Rank 0 decides for every rank (BudgetGate); its record holds the deadlines.
  double left_s = 0;
  if (world_.rank() == 0) {
    const auto* phase = report_.budget ? find_phase(*report_.budget, phase_) : nullptr;
    left_s = phase ? phase->deadline_s - run_elapsed_s() : harness::Deadline::never().remaining_s();
  }
  return harness::BudgetGate(world_, harness::Deadline::after(left_s), timeout_s());
}

void Job::budget_item(const std::string& what, double seconds) {
  auto* phase = world_.rank() == 0 && report_.budget ? find_phase(*report_.budget, phase_) : nullptr;
  if (phase && seconds > phase->longest_s) {
    phase->longest = what;
    phase->longest_s = seconds;
  }
}

void Job::budget_dropped(const std::string& what) {
  auto* phase = world_.rank() == 0 && report_.budget ? find_phase(*report_.budget, phase_) : nullptr;
  if (!phase) return;
  phase->dropped.push_back(what);
  progress("dropped (budget spent): " + what);
}

void Job::watch_tenancy(const results::RankEnv& own) { tenancy_ = std::make_unique<TenancyWatch>(own); }

void Job::check_tenancy(const std::string& phase) {
  if (tenancy_) tenancy_->at_boundary(*this, phase);
}

void Job::tenancy_seen(const std::vector<results::GpuProcess>& processes) {
  if (tenancy_) tenancy_->seen_during_phase(processes);
}

double Job::run_elapsed_s() const { return now_s() - started_s_; }

void Job::write_outputs() {
  const std::lock_guard lock(write_mutex_);
  report_.elapsed_s = now_s() - started_s_;
  apply_verdict(report_, expectations_);
  write_report_files(report_, options(), expectations_, ++writes_);
  written_ = std::make_shared<const results::RunReport>(report_);
}

void Job::record_last_words(int exit_code, const std::string& line) noexcept {
  try {
    std::unique_lock lock(write_mutex_, std::chrono::seconds(1));
    if (!lock || !written_ || written_->failure) return;
    results::RunReport report = *written_;
    report.failure = results::RunFailure{exit_code, results::valid_utf8(line), world_.rank(), {}};
    report.interrupted = exit_code == static_cast<int>(harness::ExitCode::interrupted);
    report.elapsed_s = now_s() - started_s_;
    apply_verdict(report, expectations_);
    write_report_files(report, options(), expectations_, ++writes_);
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " could not write the partial results: " << e.what() << '\n';
  }
}

void Job::phase_done(const std::string& phase) {
  if (world_.rank() != 0) return;
  report_.phases_completed.push_back(phase);
  if (auto* p = report_.budget ? find_phase(*report_.budget, phase) : nullptr) p->ended_s = run_elapsed_s();
  write_outputs();
}

void Job::phase_skipped(const std::string& phase, const std::string& reason) {
  if (world_.rank() != 0) return;
  report_.phases_skipped.push_back({phase, reason});
  if (auto* p = report_.budget ? find_phase(*report_.budget, phase) : nullptr) p->ended_s = run_elapsed_s();
  write_outputs();
}

void Job::record_failure(const results::RunFailure& failure) noexcept {
  if (world_.rank() != 0) return;
  try {
    report_.failure = failure;
    report_.failure->message = results::valid_utf8(failure.message);  // may quote a path or a host name
    report_.interrupted = failure.exit_code == static_cast<int>(harness::ExitCode::interrupted);
    write_outputs();  // the verdict rules fail a run with a failure record
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " could not write the partial results: " << e.what() << '\n';
  }
}

int Job::finish() {
  int code = 0;
  phase_ = "finish";  // waits after the phases are bootstrap waits again (env's timeout)
  progress_->finish();
  if (world_.rank() == 0) {
    report_.complete = true;
    if (report_.budget) {
      const auto* isolation = report_.collectives && report_.collectives->isolation ? &*report_.collectives->isolation : nullptr;
      if (auto check = results::budget_check(*report_.budget, isolation)) report_.checks.push_back(std::move(*check));
    }
    write_outputs();
    results::ConsoleReporter().write(report_, std::cout);
    std::cout.flush();
    code = report_.verdict.passed ? 0 : 1;
  }
  world_.broadcast_bytes(&code, sizeof code, 0, deadline());
  return code;
}

}  // namespace gpuscale::launch
