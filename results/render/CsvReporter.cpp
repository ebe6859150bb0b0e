#include "results/render/CsvReporter.hpp"

#include "results/models/Figure.hpp"
#include "results/render/Format.hpp"

namespace gpuscale::results {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

void CsvReporter::write(const RunReport& report, std::ostream& out) const {
  out << "phase,metric,labels,value,unit,beside_tenant\n";
  // Which write this file belongs to, and that write's verdict: value 1 when it passed, else 0.
  if (!report.output_set.empty())
    out << "run,output_set," << csv_field("set=" + report.output_set + ";verdict=" + verdict_result(report.verdict))
        << ',' << (report.verdict.passed ? 1 : 0) << ",,\n";
  for (const auto& f : flatten(report)) {
    out << csv_field(f.phase) << ',' << csv_field(f.metric) << ',' << csv_field(labels_text(f.labels)) << ','
        << shortest(f.value) << ',' << csv_field(f.unit) << ',' << (f.beside_tenant ? "1" : "") << '\n';
  }
}

}  // namespace gpuscale::results
