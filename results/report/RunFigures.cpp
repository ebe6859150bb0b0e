#include "results/report/RunFigures.hpp"

#include "phases/env/EnvFigures.hpp"
#include "results/render/ProjectionReporter.hpp"
#include "results/schema/RunReport.hpp"
#include "results/views/PhaseView.hpp"

namespace gpuscale::results {

std::vector<Figure> flatten(const RunReport& report) {
  std::vector<Figure> figures;
  for (const auto& view : phase_views()) view.append_figures(report, report.marks, figures);
  append_figures(report.checks, figures);
  append_figures(report.projection, figures);
  return figures;
}

}  // namespace gpuscale::results
