#pragma once
// The HTML report's charts: every phase's (results/views/PhaseView.hpp: PhaseView::charts, each built by
// results/charts/PhaseCharts.hpp), in the registry's order.
#include <vector>

#include "results/base/Figure.hpp"
#include "results/charts/PhaseCharts.hpp"

namespace gpuscale::results {

// A figure measured beside another process on its GPU (Figure::beside_tenant) is in no chart.
std::vector<ChartSection> report_charts(const std::vector<Figure>& figures, const RankNodes& rank_nodes = {});

}  // namespace gpuscale::results
