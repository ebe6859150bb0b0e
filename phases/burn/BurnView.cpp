#include "phases/burn/BurnView.hpp"

#include "phases/burn/BurnTable.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/HeadlineParts.hpp"
#include "results/base/PhaseNames.hpp"

namespace gpuscale::results::views::burn {
namespace {

using namespace names;

constexpr std::string_view kBurnLabels = "rank,precision";

constexpr FigureSpec kFigures[] = {
    {phase::burn, kSustainedTflops, kBurnLabels, "TFLOP/s"},
    {phase::burn, "first_to_sustained", kBurnLabels, "ratio"},
    {phase::burn, "clock_p50", kBurnLabels, "MHz"},
    {phase::burn, "peak_temperature", kBurnLabels, "C"},
};

void headlines(const Records&, HeadlineContext& c, std::vector<Headline>& out) {
  per_gpu(c, phase::burn, kSustainedTflops, kPrecision, [](const Figure&) { return true; },
          named("burn_sustained_tflops", "Burn: sustained TFLOP/s", "TFLOP/s a GPU sustained under the burn load"),
          tflops_peak(c, true), out);
}

void name_ranks(const Records& records, const RankRefs& refs) {
  for (std::size_t i = 0; i < records.size(); ++i) refs.rank(records[i].rank, element_name("burn", i));
}

constexpr CheckSection kCheckSections[] = {CheckSection::burn, CheckSection::floors};

}  // namespace

extern constinit const PhaseViewOf<Records> kView{
    .name = phase::burn,
    .title = "Burn: sustained load on every GPU",
    .has_records = [](const Records& records, int) { return !records.empty(); },
    .name_ranks = name_ranks,
    .append_figures = [](const Records& records, const RecordMarks& marks, std::vector<Figure>& out) {
      append_figures(records, marks, out);
    },
    .vocabulary = kFigures,
    .console = [](const Records& records, const RecordMarks& marks, bool per_rank, std::ostream& out) {
      if (per_rank) write_burn_table(records, marks, out);
    },
    .headlines = headlines,
    .check_sections = kCheckSections,
    .charts = nullptr,
};

}  // namespace gpuscale::results::views::burn
