#pragma once
// The regression test that compare and --baseline share. A figure regresses when it moves the worse way
// (down for higher-is-better, up for lower-is-better) past the tolerance and, between two runs, past the
// noise both runs measured (results/base/FigureNoise.hpp); figures without a direction never regress.
// A figure of the base run that the new run lacks is missing: a failure of its own unless the caller
// allows it or the new run's budget dropped its phase.
#include <vector>

#include "results/base/Figure.hpp"
#include "results/models/Compare.hpp"

namespace gpuscale::judge {

// Whether a relative change is worse than `tolerance` in the figure's worse direction (a NaN change is
// worse).
bool regressed(results::Better better, double change, double tolerance);

// The figures of `base` matched in `latest` (results::match_figures), each judged change marked as a
// regression where it regressed past `tolerance` and past both runs' noise.
results::Comparison compare_figures(const std::vector<results::Figure>& base,
                                    const std::vector<results::Figure>& latest, double tolerance);

// Whether the comparison fails: a regression, a missing figure (unless allowed or dropped by the new
// run's budget) or a failed new run.
bool comparison_fails(const results::Comparison& comparison, const results::CompareVerdict& verdict);

}  // namespace gpuscale::judge
