#pragma once
// Two runs' figures side by side: every figure present in both (matched by phase, metric and labels,
// with the same unit) and its relative change; local copies and sub-10-us times are listed but not
// judged (results/base/FigureNoise.hpp). A figure of the base run that the new run lacks is missing.
// Which changes regress and whether the comparison fails is the judge's (judge/Regression.hpp); this
// file pairs the figures and prints the judged comparison.
#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "results/base/Figure.hpp"

namespace gpuscale::results {

// (latest - base) / |base|; +-inf when base is 0 and latest is not.
double relative_change(double base, double latest);

struct FigureChange {
  Figure base;             // the base run's figure
  double new_value = 0;
  double relative_change = 0;  // (new - base) / |base|; +-inf when base is 0 and new is not
  bool regression = false;     // the judge's: it moved the worse way past the tolerance and the noise
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

// The judge's test of one judged change (judge/Regression.hpp): whether `latest` regressed from `base`
// by `change`, their relative change.
using RegressionTest = std::function<bool(const Figure& base, const Figure& latest, double change)>;

// The figures of `base` matched in `latest`, each with its change and why it is not judged; a judged
// change is a regression where `regressed` says so. `tolerance` is the one `regressed` applies, shown.
Comparison match_figures(const std::vector<Figure>& base, const std::vector<Figure>& latest, double tolerance,
                         const RegressionTest& regressed);

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

// A table of every change (regressions marked, unjudged ones with why), the missing figures, one
// summary line and "Compare: PASS" or, where `fails` (the judge's comparison_fails), "Compare: FAIL"
// with the reasons.
void write_comparison(const Comparison& comparison, const CompareVerdict& verdict, bool fails, std::ostream& out);

}  // namespace gpuscale::results
