#pragma once
// The command line: one executable, subcommands, cxxopts. Parsing is pure (no MPI, no files
// touched), so tests call it directly. Bad input throws harness::UsageError with one line.
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "launch/Timeouts.hpp"

namespace gpuscale::launch {

struct CommonOptions {
  std::string device = "auto";
  std::string json_path, csv_path, html_path, trace_path, prom_path, prom_dir, expect_path;
  std::string checks_csv_path;                  // --checks-csv FILE (launch/Outputs.cpp lists every output)
  std::string baseline_path;                    // --baseline FILE: judge the figures against it
  std::vector<std::string> baseline_tolerances;  // --baseline-tolerance KEY=FRAC, as given
  PhaseTimeouts timeouts;  // --timeout: seconds per wait, per phase (Job::timeout_s() reads it)
  bool quiet = false;
  bool quick = false;
  // --require-complete: work the job needed and did not measure (docs/REPORT.md, Coverage) fails the
  // verdict instead of warning.
  bool require_complete = false;
  unsigned long long seed = 1;
  // --straggler-threshold: the one straggler threshold, a judge input (RunReport::straggler_threshold):
  // a live run records it, `report` re-judges a saved run with it; absent: the report's own.
  std::optional<double> straggler_threshold;
};

struct Invocation {
  std::string command;                 // "run", "env", ...
  std::string command_line;            // argv joined, for the report
  // The parsed command and every option as given (long names, values; in a fixed order): equal on
  // two ranks exactly when they were asked to do the same thing (CommandAgreement.hpp).
  std::string fingerprint;
  bool show_help = false;              // print `help_text` and exit 0
  bool show_version = false;
  std::string help_text;
  CommonOptions common;
  std::vector<std::string> positional;  // report/compare inputs
  cxxopts::ParseResult options;         // the command's own options, for its phase to read
};

// argv[1] names the command unless it starts with '-' (then the command is `run`).
Invocation parse_command_line(int argc, const char* const* argv);

// Whether this process should print messages that every rank would print alike (usage errors come
// before MPI exists): launcher-provided rank 0, or no launcher.
bool is_launcher_rank_zero();

}  // namespace gpuscale::launch
