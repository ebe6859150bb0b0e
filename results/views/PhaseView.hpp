#pragma once
// What the results know of one phase, in one place: a PhaseViewOf its records, which each phase
// defines in its file results/views/<Name>View.cpp as `views::NAME::kView`, typed on the records that
// results/base/PhaseRegistry.def's line names (`views::NAME::Records`, RunReport's member), and a
// PhaseView, the same over a whole RunReport, which the table phase_views() makes of each. Every output
// that goes phase by phase (figures, the console's tables, the HTML sections, charts and headlines, the
// file's consistency) reads the table, in the registry's order; none lists the phases itself.
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "results/base/CheckTable.hpp"
#include "results/base/Figure.hpp"
#include "results/base/FigureSpec.hpp"
#include "results/schema/RankRefs.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

struct ChartSection;     // results/render/PhaseCharts.hpp
struct Headline;         // results/render/HeadlineParts.hpp
struct HeadlineContext;  // results/render/HeadlineParts.hpp
using RankNodes = std::vector<std::string>;

// A phase's view, over its own records: what its file defines. The function pointers that may be null
// are those PhaseView says may be.
template <class Records>
struct PhaseViewOf {
  std::string_view name;
  std::string_view title;  // its section of the HTML report
  // Its records are in a report of `world_size` ranks: what phases_completed listing it promises
  // (RunConsistency.hpp).
  bool (*has_records)(const Records& records, int world_size);
  // Every rank and node its records name, handed to `refs` (nullptr: none).
  void (*name_ranks)(const Records& records, const RankRefs& refs);
  // Its figures (Figure.hpp), appended to `out`.
  void (*append_figures)(const Records& records, std::vector<Figure>& out);
  // Every figure it can emit (FigureVocabulary.hpp): what --expect may name.
  std::span<const FigureSpec> vocabulary;
  // Its console tables (the full view): one line per rank where `per_rank`, else only those that are
  // not per rank (past a few nodes, the node table stands in for the rest). nullptr: none (env's are
  // the run's header).
  void (*console)(const Records& records, bool per_rank, std::ostream& out);
  // Its headlines (Headlines.hpp), from the run's figures in `context` and its records, appended to
  // `out` (nullptr: none).
  void (*headlines)(const Records& records, HeadlineContext& context, std::vector<Headline>& out);
  // The sections of docs/CHECKS.md whose checks its rules look for once it completes (ChecksRan.hpp).
  std::span<const CheckSection> check_sections;
  // Its charts for the HTML report (render/PhaseCharts.hpp; report/ReportCharts.hpp gathers them), from
  // figures measured on GPUs of their own.
  void (*charts)(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out);
};

// A phase's view over a whole report: its PhaseViewOf, reading its records from RunReport's member.
using PhaseView = PhaseViewOf<RunReport>;

// Each registered phase's records and view (defined in results/views/<Name>View.cpp).
#define GPUSCALE_PHASE(name, member, records, json) \
  namespace views::name {                           \
  using Records = records;                          \
  extern const PhaseViewOf<Records> kView;          \
  }
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE

// Every phase's view, in the registry's order.
std::span<const PhaseView> phase_views();
// The view of the phase called `name`, or nullptr.
const PhaseView* find_phase_view(std::string_view name);

}  // namespace gpuscale::results
