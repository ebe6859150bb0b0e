#pragma once
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// One JSON document (schema_version first-class), pretty-printed with two spaces.
class JsonReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

// Reads a report written by JsonReporter. Throws std::runtime_error naming the file and the problem,
// also for a report whose fields contradict each other (results/report/RunConsistency.hpp).
RunReport read_report_file(const std::string& path);

// The JSON document of a report, as write() prints it. Text that is not valid UTF-8 (a command line,
// an environment variable) is written with U+FFFD in its place rather than failing.
std::string report_text(const RunReport& report);
// Reads a report from JSON text. Throws std::runtime_error("SOURCE: problem") for anything else,
// including floating-point numbers outside (-1, 2^31) (integer fields are written as integers).
RunReport parse_report_text(const std::string& text, const std::string& source);

}  // namespace gpuscale::results
