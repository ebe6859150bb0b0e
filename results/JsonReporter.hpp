#pragma once
#include "results/Reporter.hpp"

namespace gpuscale::results {

// One JSON document (schema_version first-class), pretty-printed with two spaces.
class JsonReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

// Reads a report written by JsonReporter. Throws std::runtime_error naming the file and the problem.
RunReport read_report_file(const std::string& path);

}  // namespace gpuscale::results
