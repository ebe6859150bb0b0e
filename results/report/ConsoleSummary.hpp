#pragma once
// The console's one screen for the preflight (the default run and --quick): the job in a line or
// two, each phase's headline figures (results/report/Headlines.hpp) per GPU or per node against the GPU
// model's floor, the peak and a baseline, then the outliers, checks and verdict. Per-size tables stay
// in the phase commands (gpuscale collectives, compute, ...) and in the JSON, CSV and HTML.
#include <cstddef>
#include <ostream>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// Per-GPU (or per-node) values one headline's line lists before it counts the rest.
inline constexpr std::size_t kSummaryValuesPerLine = 8;

// The headlines part: one line per headline and one line of its values per GPU or node.
void write_phase_summary(const RunReport& run, std::ostream& out);

}  // namespace gpuscale::results
