#pragma once
// Console tables of the training phase: the scaling report (one row per strategy, model, precision,
// scaling mode and GPU count), the per-rank table that shows stragglers, DP's phase breakdown, and
// the correctness checks. Writes nothing when there are no records or checks.
#include <ostream>

#include "phases/train/TrainRecord.hpp"

namespace gpuscale::results {

// per_rank: the per-rank table too (the console leaves it out past a few nodes; NodeTables.hpp).
void write_train_tables(const TrainResults& results, const RecordMarks& marks, bool per_rank, std::ostream& out);

}  // namespace gpuscale::results
