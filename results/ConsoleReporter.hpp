#pragma once
#include "results/Reporter.hpp"

namespace gpuscale::results {

// The human-readable summary: one line per rank, versions, GPU topology per node, checks, verdict.
class ConsoleReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
