#pragma once
// A phase's view over its own records (results/views/PhaseView.hpp tells where each phase defines it
// and how the outputs read it): what a phase's view file is written against. It names no phase and no
// RunReport.
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "results/base/CheckTable.hpp"
#include "results/base/Figure.hpp"
#include "results/base/FigureSpec.hpp"
#include "results/base/RankRefs.hpp"
#include "results/base/RecordMarks.hpp"

namespace gpuscale::results {

struct ChartSection;     // results/charts/PhaseCharts.hpp
struct Headline;         // results/base/HeadlineParts.hpp
struct HeadlineContext;  // results/base/HeadlineParts.hpp
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
  // Its figures (Figure.hpp), appended to `out`, each with what the judge's marks on its record say
  // (measured beside another process, under its floor).
  void (*append_figures)(const Records& records, const RecordMarks& marks, std::vector<Figure>& out);
  // Every figure it can emit (FigureVocabulary.hpp): what --expect may name.
  std::span<const FigureSpec> vocabulary;
  // Its console tables (the full view), with the judge's marks: one line per rank where `per_rank`, else
  // only those that are not per rank (past a few nodes, the node table stands in for the rest).
  // nullptr: none (env's are the run's header).
  void (*console)(const Records& records, const RecordMarks& marks, bool per_rank, std::ostream& out);
  // Its headlines (Headlines.hpp), from the run's figures in `context` and its records, appended to
  // `out` (nullptr: none).
  void (*headlines)(const Records& records, HeadlineContext& context, std::vector<Headline>& out);
  // The sections of docs/CHECKS.md whose checks its rules look for once it completes (ChecksRan.hpp).
  std::span<const CheckSection> check_sections;
  // Its charts for the HTML report (charts/PhaseCharts.hpp; report/ReportCharts.hpp gathers them), from
  // figures measured on GPUs of their own.
  void (*charts)(const std::vector<Figure>& figures, const RankNodes& rank_nodes, std::vector<ChartSection>& out);
};

}  // namespace gpuscale::results
