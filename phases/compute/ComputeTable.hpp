#pragma once
// The console table of the compute phase: one row per rank, shape, precision and pass.
#include <ostream>
#include <vector>

#include "phases/compute/ComputeRecord.hpp"

namespace gpuscale::results {

// Writes nothing when there are no records.
void write_compute_table(const std::vector<ComputeRecord>& records, std::ostream& out);

}  // namespace gpuscale::results
