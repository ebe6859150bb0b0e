#include "launch/Outputs.hpp"

#include "results/render/ChecksCsvReporter.hpp"
#include "results/render/TraceReporter.hpp"
#include "results/report/CsvReporter.hpp"
#include "results/report/HtmlReporter.hpp"
#include "results/report/JsonReporter.hpp"
#include "results/report/PromReporter.hpp"
#include "results/schema/AtomicFile.hpp"

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

// One file per node, each written atomically: one node-exporter per node reads its own.
void prom_folder(const results::RunReport& report, const std::string& folder) {
  for (const auto& file : results::prom_node_files(report))
    results::write_file_atomically(folder + "/" + file.name,
                                   [&](std::ostream& out) { results::PromReporter(file.node).write(report, out); });
}

const Output kOutputs[] = {
    {"json", "write the run report as JSON to FILE (atomically)", &CommonOptions::json_path,
     plain<results::JsonReporter>, nullptr},
    {"csv", "write the figures as CSV to FILE, one row per figure with its host, rank and GPU",
     &CommonOptions::csv_path, plain<results::CsvReporter>, nullptr},
    {"checks-csv", "write the checks as CSV to FILE, one row per rank or node each concerns",
     &CommonOptions::checks_csv_path, plain<results::ChecksCsvReporter>, nullptr},
    {"html", "write a self-contained HTML report to FILE", &CommonOptions::html_path, html, nullptr},
    {"trace", "write a Chrome trace of training steps to FILE", &CommonOptions::trace_path,
     plain<results::TraceReporter>, nullptr},
    {"prom",
     "write the headline figures and checks of every node in the Prometheus text format to FILE (node-exporter's "
     "textfile collector)",
     &CommonOptions::prom_path, plain<results::PromReporter>, nullptr},
    {"prom-dir",
     "write one Prometheus file per node, gpuscale-HOST.prom, into the existing folder DIR (each node's own "
     "figures, for one node-exporter per node)",
     &CommonOptions::prom_dir, nullptr, prom_folder},
};

}  // namespace

std::span<const Output> outputs() { return kOutputs; }

}  // namespace gpuscale::launch
