#pragma once
// One self-contained HTML file (inline CSS and SVG; no script, no network), in the order a reader
// needs it at any job size: the verdict with the failed and warned checks and their fixes; the
// headline figures against their peak and the baseline; the slow-node suspects; the node heat map;
// a section per phase with its tables and charts (results/report/PhaseSections.hpp); the environment; every
// figure, folded.
#include <vector>

#include "results/base/Figure.hpp"
#include "results/render/Reporter.hpp"
#include "results/report/Baseline.hpp"

namespace gpuscale::results {

// The page for `report`, charting `figures` (normally flatten(report)); `baseline` (may be null) is
// the one the run was judged against, for the headlines' baseline column.
void write_html(const RunReport& report, const std::vector<Figure>& figures, std::ostream& out,
                const Baseline* baseline = nullptr);

class HtmlReporter final : public Reporter {
 public:
  explicit HtmlReporter(const Baseline* baseline = nullptr);  // not owned; outlives write()
  void write(const RunReport& report, std::ostream& out) const override;

 private:
  const Baseline* baseline_;
};

}  // namespace gpuscale::results
