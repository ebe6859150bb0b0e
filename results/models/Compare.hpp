#pragma once
// Two runs' figures side by side: every figure present in both (matched by phase, metric and labels,
// with the same unit) and its relative change. A figure regresses when it moves the worse way (down for
// higher-is-better, up for lower-is-better) past the tolerance and past the noise both runs measured
// (results/models/FigureNoise.hpp); local copies and sub-10-us times are listed but not judged, and
// figures without a direction never regress. A figure of the base run that the new run lacks is
// missing: a regression of its own unless the caller allows it.
#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "results/base/Figure.hpp"

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
  std::string not_judged{};   // why the change is not judged (FigureNoise.hpp); empty when it is
};

struct Comparison {
  double tolerance = 0;
  std::vector<FigureChange> changes;  // in the base run's order
  std::vector<Figure> missing;        // the base run's measured figures the new run lacks, in its order
  std::size_t checks_cleared = 0;     // checks the base run raised and the new run does not (no figure lost)
  std::size_t only_in_new = 0;
  std::size_t regressions() const;
  std::size_t not_judged() const;
};

Comparison compare_figures(const std::vector<Figure>& base, const std::vector<Figure>& latest, double tolerance);

// What decides compare's result beside the figures.
struct CompareVerdict {
  bool allow_missing = false;               // --allow-missing: missing figures are listed, not failures
  std::vector<std::string> new_run_failed;  // the new run's own failing verdict lines; empty: it passed
  // phase -> what the new run's budget dropped there (RunReport::budget). A figure missing from such a
  // phase is the budget's doing: listed with it, not a failure (the new run's verdict judges coverage).
  std::map<std::string, std::string> budget_dropped{};
};

// The missing figures that no budget drop explains.
std::size_t unexplained_missing(const Comparison& comparison, const CompareVerdict& verdict);

// Whether the comparison fails: a regression, a missing figure (unless allowed or dropped by the new
// run's budget) or a failed new run.
bool comparison_fails(const Comparison& comparison, const CompareVerdict& verdict);

// A table of every change (regressions marked, unjudged ones with why), the missing figures, one
// summary line and "Compare: PASS" or "Compare: FAIL" with the reasons.
void write_comparison(const Comparison& comparison, const CompareVerdict& verdict, std::ostream& out);

}  // namespace gpuscale::results
