#pragma once
// Every output format implements this one interface and is handed the one RunReport. Only rank 0
// calls reporters; reporters never touch CUDA or MPI.
#include <ostream>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void write(const RunReport& report, std::ostream& out) const = 0;
};

}  // namespace gpuscale::results
