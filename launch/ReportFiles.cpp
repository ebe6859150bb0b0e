#include "launch/ReportFiles.hpp"

#include <sstream>
#include <stdexcept>

#include "harness/Error.hpp"
#include "results/AtomicFile.hpp"
#include "results/CsvReporter.hpp"
#include "results/HtmlReporter.hpp"
#include "results/JsonReporter.hpp"
#include "results/TraceReporter.hpp"
#include "results/VerdictRules.hpp"

namespace gpuscale::launch {
namespace {

void write_with(const results::Reporter& reporter, const results::RunReport& report, const std::string& path) {
  if (path.empty()) return;
  std::ostringstream text;
  reporter.write(report, text);
  results::write_file_atomically(path, text.str());
}

}  // namespace

results::Expectations load_expectations(const std::string& path) {
  if (path.empty()) return {};
  try {
    return results::read_expectations_file(path);
  } catch (const std::invalid_argument& e) {
    throw harness::UsageError(e.what());
  }
}

void apply_verdict(results::RunReport& report, const results::Expectations& expectations) {
  report.verdict = results::evaluate_verdict(report, results::flatten(report), expectations);
}

void check_report_paths(const CommonOptions& o) {
  for (const auto* path : {&o.json_path, &o.csv_path, &o.html_path, &o.trace_path}) {
    try {
      if (!path->empty()) results::check_writable(*path);
    } catch (const std::runtime_error& e) {
      throw harness::UsageError(e.what());
    }
  }
}

void write_report_files(const results::RunReport& report, const CommonOptions& options) {
  write_with(results::JsonReporter(), report, options.json_path);
  write_with(results::CsvReporter(), report, options.csv_path);
  write_with(results::HtmlReporter(), report, options.html_path);
  write_with(results::TraceReporter(), report, options.trace_path);
}

}  // namespace gpuscale::launch
