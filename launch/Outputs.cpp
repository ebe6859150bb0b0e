#include "launch/Outputs.hpp"

#include "results/render/ChecksCsvReporter.hpp"
#include "results/render/CsvReporter.hpp"
#include "results/render/HtmlReporter.hpp"
#include "results/render/JsonReporter.hpp"
#include "results/render/PromReporter.hpp"
#include "results/render/TraceReporter.hpp"

namespace gpuscale::launch {
namespace {

template <class R>
std::unique_ptr<results::Reporter> plain(const results::Expectations&) {
  return std::make_unique<R>();
}

// The HTML shows the headlines against the baseline, where there is one.
std::unique_ptr<results::Reporter> html(const results::Expectations& e) {
  return std::make_unique<results::HtmlReporter>(e.baseline ? &*e.baseline : nullptr);
}

const Output kOutputs[] = {
    {"json", "write the run report as JSON to FILE (atomically)", &CommonOptions::json_path,
     plain<results::JsonReporter>},
    {"csv", "write the figures as CSV to FILE, one row per figure with its host, rank and GPU",
     &CommonOptions::csv_path, plain<results::CsvReporter>},
    {"checks-csv", "write the checks as CSV to FILE, one row per rank or node each concerns",
     &CommonOptions::checks_csv_path, plain<results::ChecksCsvReporter>},
    {"html", "write a self-contained HTML report to FILE", &CommonOptions::html_path, html},
    {"trace", "write a Chrome trace of training steps to FILE", &CommonOptions::trace_path,
     plain<results::TraceReporter>},
    {"prom",
     "write the headline figures and checks per node in the Prometheus text format to FILE (node-exporter's "
     "textfile collector)",
     &CommonOptions::prom_path, plain<results::PromReporter>},
};

}  // namespace

std::span<const Output> outputs() { return kOutputs; }

}  // namespace gpuscale::launch
