#include "phases/compute/ComputeView.hpp"

#include "phases/compute/ComputeFigures.hpp"
#include "phases/compute/ComputeTable.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/HeadlineParts.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/charts/PhaseCharts.hpp"

namespace gpuscale::results::views::compute {
namespace {

using namespace names;

constexpr std::string_view kComputeLabels = "layer,precision,pass,set,rank";

constexpr FigureSpec kFigures[] = {
    {phase::compute, kTflops, kComputeLabels, "TFLOP/s"},
    {phase::compute, kTime, kComputeLabels, "s"},
    {phase::compute, kRelativeError, kComputeLabels, "ratio"},
    {phase::compute, kWrongElements, kComputeLabels, "count"},
    {phase::compute, kStragglerSpread, "layer,precision,pass,set", "ratio"},
};

void headlines(const Records&, HeadlineContext& c, std::vector<Headline>& out) {
  per_gpu(
      c, phase::compute, kTflops, kPrecision, [](const Figure&) { return true; },
      named("compute_best_tflops", "Compute: best TFLOP/s", "best TFLOP/s of a GPU over the compute layers and passes"),
      tflops_peak(c, false), out);
}

void name_ranks(const Records& records, const RankRefs& refs) {
  for (std::size_t i = 0; i < records.size(); ++i) refs.rank(records[i].rank, element_name("compute", i));
}

constexpr CheckSection kCheckSections[] = {CheckSection::compute};

}  // namespace

extern constinit const PhaseViewOf<Records> kView{
    .name = phase::compute,
    .title = "Compute: matrix multiplies and convolutions",
    .has_records = [](const Records& records, int) { return !records.empty(); },
    .name_ranks = name_ranks,
    .append_figures = [](const Records& records, const RecordMarks& marks, std::vector<Figure>& out) {
      append_figures(records, marks, out);
    },
    .vocabulary = kFigures,
    .console = [](const Records& records, const RecordMarks& marks, bool per_rank, std::ostream& out) {
      if (per_rank) write_compute_table(records, marks, out);
    },
    .headlines = headlines,
    .check_sections = kCheckSections,
    .charts = tflops_charts,
};

}  // namespace gpuscale::results::views::compute
