#pragma once
// What both a live run (Job, rank 0) and `gpuscale report` do with a finished RunReport: evaluate the
// verdict and write the files the options ask for. No MPI.
#include <span>
#include <string>
#include <vector>

#include "launch/base/Invocation.hpp"
#include "results/report/Expectations.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::launch {

// --expect's value that picks the template of the run's GPU model and profile (ExpectTemplates.hpp).
inline constexpr char kExpectAuto[] = "auto";

// The label values a threshold may name, from the registries that define them (ops, precisions).
results::LabelValues known_label_values();

// Reads --expect FILE (or notes --expect auto), --baseline FILE and --baseline-tolerance (each
// optional), takes --require-complete, and checks the figure test seam (launch/FigureSeam.hpp).
// Throws harness::UsageError with one line.
results::Expectations load_expectations(const CommonOptions& options);

// Judges the report afresh (judge/Judge.hpp: every check, mark, outlier and the verdict, from the
// records, the figures, the thresholds and the baseline), with the figure test seam applied; with
// --expect auto, the template of the report's GPU model and profile joins the thresholds.
void apply_verdict(results::RunReport& report, const results::Expectations& expectations);

// Reads a saved run (results::read_report_file); a file that cannot be read or parsed is a one-line
// harness::UsageError.
results::RunReport read_saved_run(const std::string& path);

// A saved run judged by today's rules (apply_verdict with no --expect and no --baseline), as compare and
// baseline take it: a run written by an older version, or with its checks removed, is compared and
// pooled on the checks, marks and outliers the rules find in its records, not on what it stored.
results::RunReport read_judged_run(const std::string& path);

// The options of a live run that no offline command uses (report, compare, baseline).
inline constexpr const char* kLiveRunOptions[] = {"device", "timeout", "quick", "seed"};
// The report-file options (every output of launch/Outputs.hpp, --expect and --require-complete) that
// compare and baseline do not use.
std::vector<const char*> report_file_options();

// Fails early, before any work, with a one-line UsageError if a --json/--csv/--html/--trace/--prom path cannot
// be written (results::check_writable: absent or a regular file, in a folder that takes a new file),
// or names the same file as another output, the --expect file or one of `inputs` (report files read);
// or if --prom-dir is not an existing folder that takes a new file.
void check_report_paths(const CommonOptions& options, const std::vector<std::string>& inputs = {});

// Flushes standard output, where the console report goes. A write that failed there (a full device)
// loses the report: returns false after one line on stderr, and the caller exits 3.
bool console_written();

// The id of one set of outputs, e.g. "20261130T000000Z-4242-3": the run's start time (UTC, compact),
// the writing process's PID and the write's number within that process (1, 2, ...). Unique per write
// of a run and ordered within one; `gpuscale report` rewriting a run gets its own PID.
std::string output_set_id(const std::string& start_time, int write_number);

// Stamps report.output_set with write number `write_number`, then writes --json, --csv, --html, --trace,
// --prom and --prom-dir's file per node where given, each atomically (temp file, then rename), all from
// this one report and verdict; the HTML shows the headlines against expectations.baseline where there is one. A process
// killed between two of these files leaves files whose output_set differ.
void write_report_files(results::RunReport& report, const CommonOptions& options,
                        const results::Expectations& expectations, int write_number);

}  // namespace gpuscale::launch
