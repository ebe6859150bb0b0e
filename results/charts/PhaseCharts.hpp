#pragma once
// The HTML report's charts, each built from figures by name (results/base/FigureNames.hpp), so a chart
// appears as soon as a phase emits its figures. A chart without figures is left out.
//   chart-busbw-size   busbw against message size per op (log x), at the largest rank count (2 or more)
//   chart-busbw-ranks  busbw against ranks per op, at the largest size
//   chart-tflops-N     TFLOP/s per rank for each layer/precision/pass, outliers (> 5% worse than the median)
//                      outlined red (a faster bar never is: the note under the chart says so);
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

#include "results/base/Figure.hpp"

namespace gpuscale::results {

inline constexpr double kOutlierFraction = 0.05;

// The page's one sign convention, the console's: how far `value` lies from `reference` as a fraction,
// positive on the worse side (lower for Better::higher, higher for Better::lower), negative on the
// better; the plain change for Better::none. 0 without a reference.
double signed_worse(double value, double reference, Better better);

// A bus-bandwidth figure (busbw, peak busbw, link use) of a collective over one rank: a copy in the
// rank's own memory measures no bus, so the page shows it as not measured ("-") and charts leave it out.
bool measures_no_bus(const Figure& f);

struct ChartSection {
  ChartSection(std::string heading_words, std::string svg_text)
      : heading(std::move(heading_words)), svg(std::move(svg_text)) {}
  std::string heading;  // in words
  std::string svg;
  std::string phase;  // the phase whose figures it draws (results/base/FigureNames.hpp)
  std::string note;   // a sentence under the chart (what a red outline means); empty: none
};

// Index = rank: the name of its node. Empty: the charts draw a mark per rank.
using RankNodes = std::vector<std::string>;

// The charts of the figures each phase emits, for its view: busbw against size and ranks and the
// pairwise matrix (collectives), TFLOP/s per rank (compute), step time, efficiency and overlap (train).
void collective_charts(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out);
void tflops_charts(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out);
void training_charts(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out);

}  // namespace gpuscale::results
