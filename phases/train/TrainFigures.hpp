#pragma once
// Figures of the training phase, one set per timed configuration, labelled strategy, model, precision,
// scaling, gpus and, where any option differs from the defaults, options (as the console names it:
// "grad:bf16 opt-overlap"): step time (median over steps of the slowest rank's), samples/s, scaling efficiency,
// compute-only, communication alone, exposed communication, overlap and peak memory; every rank's step
// time (rank_step_time, labelled rank); for dp the time in each phase (dp_phase_time, labelled
// dp_phase). Skipped configurations give none. Failed correctness checks and stragglers reach the
// verdict as checks (finish_train_results), not as figures.
#include <vector>

#include "phases/train/TrainRecord.hpp"
#include "results/base/Figure.hpp"

namespace gpuscale::results {

// A configuration `marks` says ran beside another process has its figures marked so.
void append_figures(const TrainResults& results, const RecordMarks& marks, std::vector<Figure>& out);

}  // namespace gpuscale::results
