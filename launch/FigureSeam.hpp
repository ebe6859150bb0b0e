#pragma once
// A test seam, for tests only: never set this variable in production.
//
//   GPUSCALE_TEST_LOWER_FIGURE=PHASE/METRIC[/LABEL=VALUE;...]
//     the verdict judges every figure of that phase and metric whose labels include the given ones at
//     90% of its measured value (a 10% drop of a higher-is-better figure). The records, and so the
//     JSON, CSV and HTML, keep the measurement; the verdict's rules show the lowered value.
// It acts wherever the verdict is evaluated: at the end of a run, and in `gpuscale report`.
#include <vector>

#include "results/base/Figure.hpp"

namespace gpuscale::launch {

inline constexpr double kTestLoweredFraction = 0.9;

// Throws harness::UsageError with one line when the variable is set but malformed.
void check_figure_seam();
// Lowers the figures the variable names, if it is set.
void lower_figures_if_requested(std::vector<results::Figure>& figures);

}  // namespace gpuscale::launch
