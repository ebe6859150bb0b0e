#pragma once
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// Every figure as one long-format table for spreadsheets: phase,metric,labels,value,unit. Labels are
// "key=value;key=value"; fields are quoted (RFC 4180) where they hold a comma, quote or newline;
// values are the shortest decimal text that reads back to the same double.
class CsvReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
