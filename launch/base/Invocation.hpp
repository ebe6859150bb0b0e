#pragma once
// A parsed command line (Cli.hpp parses one): the command, the options every command shares, and
// the command's own options for its phases' plans to read. Plain data, below everything that reads it.
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "launch/base/PhaseTimeouts.hpp"

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

}  // namespace gpuscale::launch
