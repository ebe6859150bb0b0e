#pragma once
#include "results/render/Reporter.hpp"

namespace gpuscale::results {

// Every figure as one long-format table for spreadsheets: phase,metric,labels,value,unit,beside_tenant.
// Labels are "key=value;key=value"; fields are quoted (RFC 4180) where they hold a comma, quote or
// newline; values are the shortest decimal text that reads back to the same double; beside_tenant is 1
// for a figure measured while another process computed on its GPU, empty otherwise.
class CsvReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
