#include "launch/ReportCommands.hpp"

#include <cmath>
#include <iostream>
#include <stdexcept>

#include "harness/Error.hpp"
#include "launch/BaselineCommand.hpp"
#include "launch/ReportFiles.hpp"
#include "results/Compare.hpp"
#include "results/ConsoleReporter.hpp"
#include "results/JsonReporter.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

results::RunReport read_run(const std::string& path) {
  try {
    return results::read_report_file(path);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void require_inputs(const Invocation& inv, std::size_t count, const char* what) {
  if (inv.positional.size() != count)
    throw UsageError("gpuscale " + inv.command + " takes " + what + " (gpuscale " + inv.command + " --help)");
}

// Rebuilds the console table, the verdict (with --expect) and any --json/--csv/--html/--trace/--prom file.
int report(const Invocation& inv) {
  require_inputs(inv, 1, "one run report: RUN.json");
  const auto expectations = load_expectations(inv.common);
  check_report_paths(inv.common, inv.positional);
  auto run = read_run(inv.positional.front());
  apply_verdict(run, expectations);
  write_report_files(run, inv.common, expectations, 1);
  results::ConsoleReporter().write(run, std::cout);
  return run.verdict.passed ? 0 : 1;
}

int compare(const Invocation& inv) {
  require_inputs(inv, 2, "two run reports: BASE.json NEW.json");
  const double tolerance = inv.options["tolerance"].as<double>();
  if (!(tolerance >= 0) || !std::isfinite(tolerance))
    throw UsageError("gpuscale compare: --tolerance must be a fraction >= 0, e.g. 0.05");
  check_report_paths(inv.common, inv.positional);
  const auto base = read_run(inv.positional[0]);
  const auto latest = read_run(inv.positional[1]);
  const auto comparison = results::compare_figures(results::flatten(base), results::flatten(latest), tolerance);
  results::write_comparison(comparison, std::cout);
  return comparison.regressions() ? 1 : 0;
}

}  // namespace

int run_offline_command(const Invocation& invocation) {
  try {
    const int code = invocation.command == "compare"    ? compare(invocation)
                     : invocation.command == "baseline" ? make_baseline(invocation)
                                                        : report(invocation);
    return console_written() ? code : static_cast<int>(harness::ExitCode::runtime);
  } catch (const UsageError& e) {
    std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::usage);
  } catch (const std::exception& e) {
    std::cerr << "gpuscale: error: " << e.what() << '\n';
    return static_cast<int>(harness::ExitCode::runtime);
  }
}

}  // namespace gpuscale::launch
