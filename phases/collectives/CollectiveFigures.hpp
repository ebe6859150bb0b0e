#pragma once
// Figures of the collectives phase: busbw/algbw/time per op, size, placement and communicator group;
// wrong elements; latency and link use per op; the scaling table; the pairwise matrix.
#include <optional>
#include <vector>

#include "phases/collectives/CollectiveRecords.hpp"
#include "results/base/Figure.hpp"

namespace gpuscale::results {

// Figures measured beside another process (`marks`: sweeps, scaling points, pairs) are marked so.
void append_figures(const std::optional<CollectivesRecord>& record, const RecordMarks& marks, std::vector<Figure>& out);

}  // namespace gpuscale::results
