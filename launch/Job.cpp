#include "launch/Job.hpp"

#include <chrono>
#include <ctime>
#include <iostream>
#include <sstream>

#include "harness/Error.hpp"
#include "results/AtomicFile.hpp"
#include "results/ConsoleReporter.hpp"
#include "results/JsonReporter.hpp"

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

// Rank 0 checks every output path before any work; every rank learns the verdict.
void check_output_paths(const CommonOptions& o, const harness::World& world, const harness::Deadline& deadline) {
  std::string problem;
  if (world.rank() == 0) {
    for (const auto* path : {&o.json_path, &o.csv_path, &o.html_path, &o.trace_path}) {
      if (path->empty()) continue;
      try {
        results::check_writable(*path);
      } catch (const std::runtime_error& e) {
        problem = e.what();
        break;
      }
    }
  }
  problem = world.broadcast_from_root(problem, deadline);
  if (!problem.empty()) throw harness::UsageError(problem);
}

}  // namespace

Job::Job(const Invocation& invocation, harness::World& world)
    : invocation_(invocation), world_(world), started_s_(now_s()) {
  check_output_paths(options(), world_, deadline());
  selection_ = harness::select_backend(harness::parse_device_choice(options().device), world_, options().timeout_s);
  if (selection_.fell_back && world_.local_rank() == 0) {
    std::cerr << "\n*** WARNING " << harness::error_location()
              << ": no GPU is visible; running on the CPU BACKEND. Figures are not GPU figures. ***\n\n";
  }
  report_.tool_version = GPUSCALE_VERSION;
  report_.command_line = invocation.command_line;
  report_.start_time = utc_now();
  report_.world_size = world_.size();
  report_.node_count = world_.node_count();
}

void Job::progress(const std::string& line) const {
  if (world_.rank() == 0 && !options().quiet) std::cerr << "[gpuscale] " << line << '\n';
}

void Job::write_outputs() {
  report_.elapsed_s = now_s() - started_s_;
  if (!options().json_path.empty()) {
    std::ostringstream text;
    results::JsonReporter().write(report_, text);
    results::write_file_atomically(options().json_path, text.str());
  }
}

void Job::phase_done(const std::string& phase) {
  if (world_.rank() != 0) return;
  report_.phases_completed.push_back(phase);
  report_.verdict = results::verdict_from_checks(report_.checks);
  write_outputs();
}

void Job::record_failure(const results::RunFailure& failure) noexcept {
  if (world_.rank() != 0) return;
  try {
    report_.failure = failure;
    report_.interrupted = failure.exit_code == static_cast<int>(harness::ExitCode::interrupted);
    report_.verdict = results::verdict_from_checks(report_.checks);
    report_.verdict.passed = false;
    report_.verdict.reasons.push_back((report_.interrupted ? "interrupted: " : "failed: ") + failure.message);
    write_outputs();
  } catch (const std::exception& e) {
    std::cerr << harness::error_location() << " could not write the partial results: " << e.what() << '\n';
  }
}

int Job::finish() {
  int code = 0;
  if (world_.rank() == 0) {
    report_.verdict = results::verdict_from_checks(report_.checks);
    write_outputs();
    results::ConsoleReporter().write(report_, std::cout);
    std::cout.flush();
    code = report_.verdict.passed ? 0 : 1;
  }
  world_.broadcast_bytes(&code, sizeof code, 0, deadline());
  return code;
}

}  // namespace gpuscale::launch
