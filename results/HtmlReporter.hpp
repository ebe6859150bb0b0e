#pragma once
// One self-contained HTML file (inline CSS and SVG; no script, no network): the verdict and failed
// checks first, the environment table, the charts (results/ReportCharts.hpp), then every figure.
#include <vector>

#include "results/Figure.hpp"
#include "results/Reporter.hpp"

namespace gpuscale::results {

// The page for `report`, charting `figures` (normally flatten(report)).
void write_html(const RunReport& report, const std::vector<Figure>& figures, std::ostream& out);

class HtmlReporter final : public Reporter {
 public:
  void write(const RunReport& report, std::ostream& out) const override;
};

}  // namespace gpuscale::results
