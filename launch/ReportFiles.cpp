#include "launch/ReportFiles.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "collectives/Op.hpp"
#include "harness/Error.hpp"
#include "judge/Judge.hpp"
#include "launch/ExpectTemplates.hpp"
#include "launch/FigureSeam.hpp"
#include "launch/Outputs.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/JsonReporter.hpp"
#include "results/schema/AtomicFile.hpp"
#include "workloads/layers/Precision.hpp"

namespace gpuscale::launch {
namespace {

// Streams the reporter's text into the file: a large report is never held whole as text.
void write_with(const results::Reporter& reporter, const results::RunReport& report, const std::string& path) {
  results::write_file_atomically(path, [&](std::ostream& out) { reporter.write(report, out); });
}

// A folder output's folder exists and takes new files (probed as AtomicFile's check_writable does);
// its files' names come from the run, so they cannot clash with a named file here.
void check_folder(const std::string& option, const std::string& folder) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error))
    throw harness::UsageError(option + " " + folder + " is not an existing folder");
  try {
    results::check_writable((std::filesystem::path(folder) / "gpuscale-probe.prom").string());
  } catch (const std::runtime_error& e) {
    throw harness::UsageError(option + " " + folder + ": " + e.what());
  }
}

}  // namespace

results::LabelValues known_label_values() {
  results::LabelValues values;
  for (const auto* op : collectives::all_ops()) values[results::names::kOp].emplace_back(op->name);
  for (const auto p : workloads::kAllPrecisions)
    values[results::names::kPrecision].emplace_back(workloads::to_string(p));
  return values;
}

results::Expectations load_expectations(const CommonOptions& o) {
  results::Expectations expectations;
  try {
    if (o.expect_path == kExpectAuto)
      expectations.auto_template = true;
    else if (!o.expect_path.empty())
      expectations = results::read_expectations_file(o.expect_path, known_label_values());
    expectations.require_complete = o.require_complete;
    if (!o.baseline_path.empty()) {
      try {
        expectations.baseline = results::read_baseline_file(o.baseline_path);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--baseline ") + e.what());
      }
    }
    for (const auto& text : o.baseline_tolerances)
      results::add_tolerance_override(text, expectations.baseline_tolerance);
  } catch (const std::invalid_argument& e) {
    throw harness::UsageError(e.what());
  }
  check_figure_seam();
  return expectations;
}

void apply_verdict(results::RunReport& report, const results::Expectations& expectations) {
  if (!expectations.auto_template) {
    judge::judge(report, expectations, lower_figures_if_requested);
    return;
  }
  // --expect auto: the template of this run's GPU model and profile, picked afresh at every judgement.
  auto picked = pick_template(report);
  auto merged = expectations;
  if (picked.expect) {
    const auto t = results::parse_expectations(*picked.expect, known_label_values());
    merged.thresholds.insert(merged.thresholds.end(), t.thresholds.begin(), t.thresholds.end());
    merged.checks_must_pass.insert(merged.checks_must_pass.end(), t.checks_must_pass.begin(), t.checks_must_pass.end());
  }
  merged.source = std::move(picked.source);
  judge::judge(report, merged, lower_figures_if_requested);
}

results::RunReport read_saved_run(const std::string& path) {
  try {
    return results::read_report_file(path);
  } catch (const std::runtime_error& e) {
    throw harness::UsageError(e.what());
  }
}

results::RunReport read_judged_run(const std::string& path) {
  auto run = read_saved_run(path);
  apply_verdict(run, {});
  return run;
}

std::vector<const char*> report_file_options() {
  std::vector<const char*> names;
  for (const auto& out : outputs()) names.push_back(out.option);
  names.push_back("expect");
  names.push_back("require-complete");
  return names;
}

void check_report_paths(const CommonOptions& o, const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::string>> named_inputs;  // (what, path)
  if (!o.expect_path.empty() && o.expect_path != kExpectAuto) named_inputs.emplace_back("--expect", o.expect_path);
  if (!o.baseline_path.empty()) named_inputs.emplace_back("--baseline", o.baseline_path);
  for (const auto& in : inputs) named_inputs.emplace_back("the input", in);
  const auto files = outputs();
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string option = std::string("--") + files[i].option, &path = o.*files[i].path;
    if (path.empty()) continue;
    if (files[i].write_folder) {
      check_folder(option, path);
      continue;
    }
    // Two outputs on one file would keep only the last; an output on an input would destroy it.
    for (std::size_t k = 0; k < i; ++k)
      if (const auto& other = o.*files[k].path; !other.empty() && results::same_file(other, path))
        throw harness::UsageError(std::string("--") + files[k].option + " and " + option + " name the same file " +
                                  path);
    for (const auto& [what, input] : named_inputs)
      if (results::same_file(input, path))
        throw harness::UsageError(option + " " + path + " is " + what + " " + input + "; it would be overwritten");
    try {
      results::check_writable(path);
    } catch (const std::runtime_error& e) {
      throw harness::UsageError(e.what());
    }
  }
}

bool console_written() {
  errno = 0;
  std::cout.flush();  // stdout is a C stream underneath: this flushes it and reports its error
  if (std::cout.good()) return true;
  const int error = errno;
  std::cerr << "gpuscale: error: cannot write to standard output: "
            << (error ? std::strerror(error) : "write failed") << '\n' << std::flush;
  return false;
}

std::string output_set_id(const std::string& start_time, int write_number) {
  return results::compact_start_time(start_time) + "-" + std::to_string(::getpid()) + "-" + std::to_string(write_number);
}

void write_report_files(results::RunReport& report, const CommonOptions& options,
                        const results::Expectations& expectations, int write_number) {
  report.output_set = output_set_id(report.start_time, write_number);
  for (const auto& out : outputs()) {
    const auto& path = options.*out.path;
    if (path.empty()) continue;
    if (out.write_folder)
      out.write_folder(report, path);
    else
      write_with(*out.reporter(expectations), report, path);
  }
}

}  // namespace gpuscale::launch
