#pragma once
// Figures of the env phase: per rank, the smoke allreduce (time, wrong elements), GPU memory, clocks,
// temperature and power; and one figure per check.
#include <vector>

#include "results/base/Check.hpp"
#include "results/base/Figure.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::results {

void append_figures(const std::vector<RankEnv>& ranks, std::vector<Figure>& out);
// phase "checks", metric = the check's id, labels severity (and on_ranks), value 1, lower is better.
void append_figures(const std::vector<Check>& checks, std::vector<Figure>& out);

}  // namespace gpuscale::results
