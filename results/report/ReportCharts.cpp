#include "results/report/ReportCharts.hpp"

#include "results/views/PhaseView.hpp"

namespace gpuscale::results {

std::vector<ChartSection> report_charts(const std::vector<Figure>& all, const RankNodes& rank_nodes) {
  // A figure measured beside another process on its GPU would draw that process's load as the GPU's
  // (a scaling efficiency of 2.2 on one GPU): the tables mark it, the charts leave it out.
  std::vector<Figure> figures;
  for (const auto& f : all)
    if (!f.beside_tenant) figures.push_back(f);
  std::vector<ChartSection> out;
  for (const auto& view : phase_views()) {
    if (!view.charts) continue;
    const auto first = out.size();
    view.charts(figures, rank_nodes, out);
    for (auto i = first; i < out.size(); ++i) out[i].phase = view.name;
  }
  return out;
}

}  // namespace gpuscale::results
