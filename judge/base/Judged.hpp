#pragma once
// What a rule family finds, and what it reads beside its records: the vocabulary every family is
// written in, a phase's own (PhaseRulesOf.hpp) and the judge's cross-phase ones (judge/Rule.hpp).
// Below the phases: it names no phase and no RunReport.
#include <cstddef>
#include <string_view>
#include <vector>

#include "results/base/Check.hpp"
#include "results/base/Figure.hpp"
#include "results/base/Outlier.hpp"
#include "results/base/RuleInputRanges.hpp"

namespace gpuscale::judge {

using results::Check;
using results::GpuBlock;
using results::Severity;

// One mark on one record (a flag the JSON keeps beside the record's figures), keyed by the record's
// place in its RunReport list. Each is a mark of one phase's records: `kind` is one of the phase's own
// marks, an enum its rules declare in phases/NAME/<Name>Checks.hpp with a `phase_of` that names the phase,
// and its rules set and clear it (PhaseRules::set_mark, clear_marks), whichever family raises it.
struct RecordMark {
  std::string_view phase;
  int kind = 0;
  std::size_t index = 0;
  std::size_t rank_index = 0;  // a record's rank, where it holds one per rank (train)
  double value = 0;            // a mark that sets a figure (a floor)

  template <class Kind>
  bool is(Kind k) const {
    return phase == phase_of(k) && kind == static_cast<int>(k);
  }
};

// The mark `kind` (a phase's own enum) on the record at `index` of its phase's list.
template <class Kind>
RecordMark record_mark(Kind kind, std::size_t index, std::size_t rank_index = 0, double value = 0) {
  return {phase_of(kind), static_cast<int>(kind), index, rank_index, value};
}

// What a family (or the whole judge) found.
struct Judged {
  std::vector<Check> checks;
  std::vector<RecordMark> marks;
  std::vector<results::Outlier> outliers;  // the fleet outliers (the figure stage only)
};

// Where a rank ran, from env's records (the ranks'): what a phase's rules may read of the job beyond
// their own records.
struct RankPlace {
  int node = 0;        // its node's index
  int local_rank = 0;  // its index on its node
  bool speed_judged = true;  // its backend's speed is compared (SpeedJudged.hpp: not the CPU's shared cores)
};

// What every family reads beside the records: the report's rule inputs and the job's layout.
struct RuleContext {
  double straggler_threshold = results::kDefaultStragglerThreshold;  // the report's
  double busy_utilization_pct = results::kDefaultBusyUtilizationPct;  // the report's
  std::vector<RankPlace> ranks;  // index = rank
  std::string_view phase;  // a per-phase family ("*"): the phase whose part it judges now
  const std::vector<results::Figure>* figures = nullptr;  // the figure stage: the figures the verdict judges
};

// The index of `r` in `records` (it must be one of them): the key of a mark.
template <class T>
std::size_t index_in(const std::vector<T>& records, const T& r) {
  return static_cast<std::size_t>(&r - records.data());
}

void append(std::vector<Check>& out, std::vector<Check>&& checks);
void append(Judged& out, Judged&& more);

// Applies a mark to records[index], the record it is keyed by, where there is one; true, for a set_mark
// to return: the mark was the phase's.
template <class T, class Apply>
bool set_at(std::vector<T>& records, std::size_t index, Apply&& apply) {
  if (index < records.size()) apply(records[index]);
  return true;
}

}  // namespace gpuscale::judge
