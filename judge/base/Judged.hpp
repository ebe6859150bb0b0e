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
#include "results/base/RecordMarks.hpp"
#include "results/base/RuleInputRanges.hpp"
#include "results/base/Suspect.hpp"

namespace gpuscale::judge {

using results::Check;
using results::GpuBlock;
using results::record_mark;
using results::RecordMark;
using results::RecordMarks;
using results::Severity;

// What a family (or the whole judge) found: its checks, and its marks on records (a phase's own kinds,
// declared beside its records: results/base/RecordMarks.hpp), whichever family raises them.
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
  // The report's marks, set before the families judge (the tenancy family's beside_tenant, which the
  // speed rules read); the families' own marks are their output (Judged::marks). Read through
  // record_marks(): none where unset.
  const RecordMarks* marks = nullptr;
  // The report's suspects (RunReport::suspects), ranked before the families judge: those the collectives
  // family names where the isolation measured nothing to rank again (a file that kept only its run's).
  // Read through ranked_suspects(): none where unset.
  const results::SuspectList* suspects = nullptr;

  const RecordMarks& record_marks() const {
    static const RecordMarks kNone;
    return marks ? *marks : kNone;
  }
  const results::SuspectList& ranked_suspects() const {
    static const results::SuspectList kNone;
    return suspects ? *suspects : kNone;
  }
};

// The index of `r` in `records` (it must be one of them): the key of a mark.
template <class T>
std::size_t index_in(const std::vector<T>& records, const T& r) {
  return static_cast<std::size_t>(&r - records.data());
}

void append(std::vector<Check>& out, std::vector<Check>&& checks);
void append(Judged& out, Judged&& more);

}  // namespace gpuscale::judge
