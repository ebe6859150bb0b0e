#pragma once
// Two runs' figures side by side: every figure present in both (matched by phase, metric and labels,
// with the same unit) and its relative change. A figure regresses when it moves past the tolerance in
// its worse direction (down for higher-is-better, up for lower-is-better); figures without a direction
// are listed but never regress.
#include <cstddef>
#include <ostream>
#include <vector>

#include "results/models/Figure.hpp"

namespace gpuscale::results {

// (latest - base) / |base|; +-inf when base is 0 and latest is not.
double relative_change(double base, double latest);
// Whether a relative change is worse than `tolerance` in the figure's worse direction (down for
// higher-is-better, up for lower-is-better; a NaN change is worse). The one rule compare and
// --baseline share.
bool regressed(Better better, double change, double tolerance);

struct FigureChange {
  Figure base;             // the base run's figure
  double new_value = 0;
  double relative_change = 0;  // (new - base) / |base|; +-inf when base is 0 and new is not
  bool regression = false;
};

struct Comparison {
  double tolerance = 0;
  std::vector<FigureChange> changes;  // in the base run's order
  std::size_t only_in_base = 0, only_in_new = 0;
  std::size_t regressions() const;
};

Comparison compare_figures(const std::vector<Figure>& base, const std::vector<Figure>& latest, double tolerance);

// A table of every change, regressions marked, then one summary line.
void write_comparison(const Comparison& comparison, std::ostream& out);

}  // namespace gpuscale::results
