#pragma once
// Figures of the compute phase: TFLOP/s and median time per rank, layer, precision and pass; the
// relative error of each reference check; the straggler spread per measurement across ranks.
#include <vector>

#include "phases/compute/ComputeRecord.hpp"
#include "results/base/Figure.hpp"

namespace gpuscale::results {

// Records `marks` says were measured beside another process are marked so, and left out of the spread.
void append_figures(const std::vector<ComputeRecord>& records, const RecordMarks& marks, std::vector<Figure>& out);

}  // namespace gpuscale::results
