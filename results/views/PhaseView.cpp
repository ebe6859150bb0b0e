#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

// `view` over a whole report, reading the phase's records from `member`.
template <auto member, const auto& view>
PhaseView over_report() {
  PhaseView v{};
  v.name = view.name;
  v.title = view.title;
  v.vocabulary = view.vocabulary;
  v.check_sections = view.check_sections;
  v.charts = view.charts;
  v.has_records = [](const RunReport& r, int world_size) { return view.has_records(r.*member, world_size); };
  if (view.name_ranks) v.name_ranks = [](const RunReport& r, const RankRefs& refs) { view.name_ranks(r.*member, refs); };
  v.append_figures = [](const RunReport& r, const RecordMarks& marks, std::vector<Figure>& out) {
    view.append_figures(r.*member, marks, out);
  };
  if (view.console)
    v.console = [](const RunReport& r, const RecordMarks& marks, bool per_rank, std::ostream& out) {
      view.console(r.*member, marks, per_rank, out);
    };
  if (view.headlines)
    v.headlines = [](const RunReport& r, HeadlineContext& c, std::vector<Headline>& out) {
      view.headlines(r.*member, c, out);
    };
  return v;
}

}  // namespace

std::span<const PhaseView> phase_views() {
  static const PhaseView kViews[] = {
#define GPUSCALE_PHASE(name, member, records, json) over_report<&RunReport::member, views::name::kView>(),
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
  };
  return kViews;
}

const PhaseView* find_phase_view(std::string_view name) {
  for (const auto& v : phase_views())
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace gpuscale::results
