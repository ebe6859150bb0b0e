#pragma once
// What the results know of one phase, in one place: a PhaseView, which each phase defines in its file
// results/views/<Name>View.cpp as `views::NAME::kView`, and results/base/PhaseRegistry.def lists
// (the table: phase_views()). Every output that goes phase by phase (figures, the console's tables,
// the HTML sections, charts and headlines, the file's consistency) reads it from here, in the
// registry's order; none lists the phases itself.
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

struct PhaseView {
  std::string_view name;
  std::string_view title;  // its section of the HTML report
  // Its records are in the report: what phases_completed listing it promises (RunConsistency.hpp).
  bool (*has_records)(const RunReport& report);
  // Every rank and node its records name, handed to `refs` (nullptr: none).
  void (*name_ranks)(const RunReport& report, const RankRefs& refs);
  // Its figures (Figure.hpp), appended to `out`.
  void (*append_figures)(const RunReport& report, std::vector<Figure>& out);
  // Every figure it can emit (FigureVocabulary.hpp): what --expect may name.
  std::span<const FigureSpec> vocabulary;
  // Its console tables (the full view): one line per rank where `per_rank`, else only those that are
  // not per rank (past a few nodes, the node table stands in for the rest). nullptr: none (env's are
  // the run's header).
  void (*console)(const RunReport& report, bool per_rank, std::ostream& out);
  // Its headlines (Headlines.hpp), appended to `out` (nullptr: none).
  void (*headlines)(HeadlineContext& context, std::vector<Headline>& out);
  // The sections of docs/CHECKS.md whose checks its rules look for once it completes (ChecksRan.hpp).
  std::span<const CheckSection> check_sections;
  // Its charts for the HTML report (render/PhaseCharts.hpp; report/ReportCharts.hpp gathers them), from
  // figures measured on GPUs of their own.
  void (*charts)(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out);
};

// Every phase's view, in the registry's order.
std::span<const PhaseView> phase_views();
// The view of the phase called `name`, or nullptr.
const PhaseView* find_phase_view(std::string_view name);

}  // namespace gpuscale::results
