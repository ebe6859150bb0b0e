#include "launch/ReportCommands.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "harness/Error.hpp"
#include "judge/Regression.hpp"
#include "launch/ReportFiles.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/models/Compare.hpp"
#include "results/report/ConsoleReporter.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::launch {
namespace {

using harness::UsageError;

void require_inputs(const Invocation& inv, std::size_t count, const char* what) {
  if (inv.positional.size() != count)
    throw UsageError("gpuscale " + inv.command + " takes " + what + " (gpuscale " + inv.command + " --help)");
}

// The screen the run printed: a phase's own command's tables (the command is the first word after the
// program in the run's command line, named as its phase), else the whole-job run's one-screen summary.
results::ConsoleView view_the_run_printed(const results::RunReport& run) {
  const auto program_end = run.command_line.find(' ');
  std::string command;
  if (program_end != std::string::npos) {
    const auto start = program_end + 1;
    command = run.command_line.substr(start, run.command_line.find(' ', start) - start);
  }
  return results::is_phase(command) ? results::ConsoleView::full : results::ConsoleView::summary;
}

// Rebuilds the console (the screen the run printed, or every table with --full), the verdict (with
// --expect) and any --json/--csv/--html/--trace/--prom file.
int report(const Invocation& inv) {
  require_inputs(inv, 1, "one run report: RUN.json");
  const auto expectations = load_expectations(inv.common);
  check_report_paths(inv.common, inv.positional);
  auto run = read_saved_run(inv.positional.front());
  if (inv.common.straggler_threshold) run.straggler_threshold = *inv.common.straggler_threshold;
  apply_verdict(run, expectations);
  write_report_files(run, inv.common, expectations, 1);
  const auto view = inv.options.count("full") ? results::ConsoleView::full : view_the_run_printed(run);
  results::ConsoleReporter(view).write(run, std::cout);
  return run.verdict.passed ? 0 : 1;
}

// A run that did not finish lacks the figures of the phases it never reached: compared, it would pass
// on what little it has. Such a run is refused unless --allow-incomplete asks to compare what it has.
// Both runs are judged by today's rules first, so their checks' figures compare like with like.
results::RunReport read_finished_run(const std::string& path, bool allow_incomplete) {
  auto run = read_judged_run(path);
  const auto why = results::unfinished_reason(run);
  if (why.empty()) return run;
  if (!allow_incomplete)
    throw UsageError(path + " is not a complete run (" + why +
                     "); compare takes finished runs (--allow-incomplete compares what it has)");
  std::cerr << "gpuscale: warning: " << path << " is not a complete run (" << why
            << "): figures of the phases it did not reach are missing\n";
  return run;
}

// The new run's own failing verdict lines. A run taken with --allow-incomplete is known not to have
// finished (a warning said so): its "run completed" line (docs/REPORT.md, Verdict) is left out, the
// others count.
std::vector<std::string> new_run_failures(const results::RunReport& run, bool allow_incomplete) {
  std::vector<std::string> failed;
  for (const auto& rule : run.verdict.rules)
    if (rule.result == results::RuleResult::fail && !(allow_incomplete && rule.name == "run completed"))
      failed.push_back("FAIL  " + rule.name + "  (" + rule.detail + ")");
  return failed;
}

// Phase -> what the run's budget dropped there ("allreduce 2K..32K (3 of 7 sizes); ..."), for the
// phases that completed and dropped anything.
std::map<std::string, std::string> budget_dropped(const results::RunReport& run) {
  std::map<std::string, std::string> dropped;
  if (!run.budget) return dropped;
  const auto& completed = run.phases_completed;
  for (const auto& p : run.budget->phases) {
    if (std::find(completed.begin(), completed.end(), p.phase) == completed.end()) continue;
    for (const auto& what : p.dropped) dropped[p.phase] += (dropped[p.phase].empty() ? "" : "; ") + what;
  }
  return dropped;
}

int compare(const Invocation& inv) {
  require_inputs(inv, 2, "two run reports: BASE.json NEW.json");
  const double tolerance = inv.options["tolerance"].as<double>();
  if (!(tolerance >= 0) || !std::isfinite(tolerance))
    throw UsageError("gpuscale compare: --tolerance must be a fraction >= 0, e.g. 0.05");
  check_report_paths(inv.common, inv.positional);
  const bool allow_incomplete = inv.options.count("allow-incomplete") > 0;
  const auto base = read_finished_run(inv.positional[0], allow_incomplete);
  const auto latest = read_finished_run(inv.positional[1], allow_incomplete);
  const auto comparison = judge::compare_figures(results::flatten(base), results::flatten(latest), tolerance);
  // NEW is judged by today's rules (read_judged_run): a run that failed its own verdict (a wrong result,
  // a phase that measured nothing, a blocking check) fails compare whatever its figures say.
  results::CompareVerdict verdict{inv.options.count("allow-missing") > 0, new_run_failures(latest, allow_incomplete),
                                   budget_dropped(latest)};
  const bool fails = judge::comparison_fails(comparison, verdict);
  results::write_comparison(comparison, verdict, fails, std::cout);
  return fails ? 1 : 0;
}

}  // namespace

int report_command(const Invocation& invocation) { return report(invocation); }
int compare_command(const Invocation& invocation) { return compare(invocation); }

}  // namespace gpuscale::launch
