#pragma once
// The HTML report's charts, each built from figures by name (results/models/FigureNames.hpp), so a chart
// appears as soon as a phase emits its figures. A chart without figures is left out.
//   chart-busbw-size   busbw against message size per op (log x), at the largest rank count (2 or more)
//   chart-busbw-ranks  busbw against ranks per op, at the largest size
//   chart-tflops-N     TFLOP/s per rank for each layer/precision/pass, outliers (> 5% off the median) marked;
//                      past a few nodes (rank_nodes given) a bar per node instead: its slowest GPU, named
//                      by the node, marked against the median node; with one rank, per precision for each
//                      layer/pass; forward passes first
//   chart-step-time    step time against GPUs per training configuration
//   chart-efficiency   scaling efficiency against GPUs per training configuration
//   chart-overlap-N    per model/precision/scaling: compute vs exposed communication, stacked, per strategy
//                      and GPU count
//   chart-pairwise-N   the pairwise busbw matrix as a heat map (opt-in past a few dozen ranks: one cell per pair)
// Headings and legends name labels in words (values alone: "matmul, forward, bf16"). A figure measured
// beside another process on its GPU (Figure::beside_tenant) is in no chart.
// A line chart's legend names each series by the labels that set it apart from the chart's others.
#include <string>
#include <utility>
#include <vector>

#include "results/models/Figure.hpp"

namespace gpuscale::results {

inline constexpr double kOutlierFraction = 0.05;

struct ChartSection {
  ChartSection(std::string heading_words, std::string svg_text)
      : heading(std::move(heading_words)), svg(std::move(svg_text)) {}
  std::string heading;  // in words
  std::string svg;
  std::string phase;  // the phase whose figures it draws (results/models/FigureNames.hpp)
};

// Index = rank: the name of its node. Empty: the charts draw a mark per rank.
using RankNodes = std::vector<std::string>;

std::vector<ChartSection> report_charts(const std::vector<Figure>& figures, const RankNodes& rank_nodes = {});

}  // namespace gpuscale::results
