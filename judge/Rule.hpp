#pragma once
// A rule family (docs/ARCHITECTURE.md, "How to add a rule"): a pure function from the records of a
// RunReport to findings (checks) and marks on records (the flags the JSON keeps beside a record's
// figures: a compute straggler, a slow burn, a GPU under its model's floor). No rule writes into a
// record; the judge (Judge.hpp) applies every family's marks in one place. A phase's own family is
// part of its PhaseRules (PhaseRules.hpp), from the phase registry; the cross-phase families are listed in
// RuleRegistry.def.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "results/base/Check.hpp"
#include "results/base/Figure.hpp"
#include "results/schema/Outlier.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

using results::Check;
using results::GpuBlock;
using results::RunReport;
using results::Severity;

// One mark on one record (a flag the JSON keeps beside the record's figures), keyed by the record's
// place in its RunReport list. Each is a mark of one phase's records: `kind` is one of the phase's own
// marks, an enum its rules declare in judge/<Name>Checks.hpp with a `phase_of` that names the phase,
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

// The context of `report`'s rule inputs and ranks, for a family running at `phase`.
RuleContext rule_context(const RunReport& report, std::string_view phase = {},
                         const std::vector<results::Figure>* figures = nullptr);

struct RuleFamily {
  std::string_view name;        // "env", "compute", "tenancy", ...
  // Where it runs: the phase whose records it reads ("env", "links", ...: after that phase's earlier
  // families); "*": once after each phase, for that phase's part; "": after every phase, over the whole
  // run; "figures": over the figures, after the record families.
  std::string_view phase;
  std::string_view reads;       // the RunReport fields it reads, as the JSON names them
  std::string_view severities;  // its ids and their severities (docs/CHECKS.md has the messages)
  GpuBlock stops_gpu_work;      // the most GPU work one of its findings stops
  Judged (*judge)(const RunReport& report, const RuleContext& context);
  // A cross-phase family may complete a phase's own findings with what other phases' records say of
  // them: called with `phase`'s family's checks as the judge gathers them (nullptr: it adds nothing).
  void (*amend)(const RunReport& report, std::string_view phase, std::vector<Check>& checks) = nullptr;
};

// Every family, in the judge's order: each phase's own (PhaseRules.hpp) in the phase registry's order,
// then those of judge/RuleRegistry.def in its order.
std::span<const RuleFamily* const> all_rule_families();
// The family named `name`; throws std::out_of_range for an unknown one.
const RuleFamily& find_rule_family(std::string_view name);

// The index of `r` in `records` (it must be one of them): the key of a mark.
template <class T>
std::size_t index_in(const std::vector<T>& records, const T& r) {
  return static_cast<std::size_t>(&r - records.data());
}

void append(std::vector<Check>& out, std::vector<Check>&& checks);
void append(Judged& out, Judged&& more);

}  // namespace gpuscale::judge
