#include "results/models/RunFigures.hpp"

#include "results/models/CollectiveFigures.hpp"
#include "results/models/ComputeFigures.hpp"
#include "results/models/EnvFigures.hpp"
#include "results/models/TrainFigures.hpp"
#include "results/render/BurnTable.hpp"
#include "results/render/LinksTable.hpp"
#include "results/render/ProjectionReporter.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

std::vector<Figure> flatten(const RunReport& report) {
  std::vector<Figure> figures;
  append_figures(report.ranks, figures);
  append_figures(report.checks, figures);
  append_figures(report.compute, figures);
  append_figures(report.collectives, figures);
  append_figures(report.train, figures);
  append_figures(report.links, figures);
  append_figures(report.burn, figures);
  append_figures(report.projection, figures);
  // Each further phase adds its line here: append_figures(report.<its records>, figures);
  return figures;
}

}  // namespace gpuscale::results
