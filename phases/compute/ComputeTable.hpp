#pragma once
// The console table of the compute phase: one row per rank, shape, precision and pass.
#include <ostream>
#include <vector>

#include "phases/compute/ComputeRecord.hpp"

namespace gpuscale::results {

// Writes nothing when there are no records.
// With the judge's marks on the records (straggler, beside a tenant).
void write_compute_table(const std::vector<ComputeRecord>& records, const RecordMarks& marks, std::ostream& out);

}  // namespace gpuscale::results
