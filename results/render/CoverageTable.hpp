#pragma once
// The coverage list (Verdict::coverage, judge/Coverage.hpp) for the console and the HTML: every item
// the command planned with PASS / WARN / FAIL / SKIP and why. The console groups items of one phase
// with the same result and reason into one line of at most kCoverageLineWidth characters.
#include <ostream>

#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

inline constexpr std::size_t kCoverageLineWidth = 160;

// "== Coverage: ... ==" and a line per phase, result and reason; nothing when there is no coverage.
void write_coverage(const Verdict& verdict, std::ostream& out);
// <section id="coverage">: a table row per item; nothing when there is no coverage.
void write_coverage_html(const Verdict& verdict, std::ostream& out);

}  // namespace gpuscale::results
