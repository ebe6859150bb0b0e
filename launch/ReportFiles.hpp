#pragma once
// What both a live run (Job, rank 0) and `gpuscale report` do with a finished RunReport: evaluate the
// verdict and write the files the options ask for. No MPI.
#include <string>

#include "launch/Cli.hpp"
#include "results/Expectations.hpp"
#include "results/RunReport.hpp"

namespace gpuscale::launch {

// Reads --expect FILE (empty path: no thresholds). Throws harness::UsageError with one line.
results::Expectations load_expectations(const std::string& path);

// Recomputes report.verdict from its checks, its figures and the thresholds.
void apply_verdict(results::RunReport& report, const results::Expectations& expectations);

// Fails early, before any work, if a --json/--csv/--html/--trace path cannot be written: UsageError.
void check_report_paths(const CommonOptions& options);

// Writes --json, --csv, --html and --trace where given, each atomically (temp file, then rename).
void write_report_files(const results::RunReport& report, const CommonOptions& options);

}  // namespace gpuscale::launch
