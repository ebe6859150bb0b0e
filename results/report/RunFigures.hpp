#pragma once
// Every figure of a run: the one place that knows each phase's records and their figures
// (results/base/Figure.hpp says how a phase adds its own). Above the figure type and every phase's
// figures, so that none of them needs the whole report.
#include <vector>

#include "results/base/Figure.hpp"

namespace gpuscale::results {

struct RunReport;

// Every figure of the report, phase by phase, in a stable order.
std::vector<Figure> flatten(const RunReport& report);

}  // namespace gpuscale::results
