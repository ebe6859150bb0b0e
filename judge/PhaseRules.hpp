#pragma once
// What the judge knows of a phase, in one place: a PhaseRulesOf its records, which the phase's family
// file judge/<Name>Checks.cpp (NAME with its first letter capitalised) defines as `phases::NAME::kRules`
// for each line GPUSCALE_PHASE(NAME, ...) of results/base/PhaseRegistry.def, typed on the records that
// line names (`phases::NAME::Records`), as launch/phases/NAME/ defines launch's `phases::NAME::kPhase`:
// its rule family, the marks on its records, what it measured of its planned items and of its records.
// What it reads of the job beyond its records comes in the RuleContext (Rule.hpp). A PhaseRules is the
// same over a whole RunReport, which the table all_phase_rules() makes of each.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "judge/ItemMeasured.hpp"
#include "judge/RecordSkips.hpp"
#include "judge/Rule.hpp"
#include "results/schema/PlanRecord.hpp"

namespace gpuscale::judge {

struct SharedGpus;  // TenancyChecks.hpp

// A phase's rules over its own records: what its family file defines. Every pointer but `judge` may be
// null: the phase has no such part.
template <class Records>
struct PhaseRulesOf {
  std::string_view reads;       // what its family reads, as the JSON names it (RuleFamily::reads)
  std::string_view severities;  // RuleFamily::severities
  GpuBlock stops_gpu_work;      // RuleFamily::stops_gpu_work
  // Its rule family over its records: its findings and their marks.
  Judged (*judge)(const Records& records, const RuleContext& context);
  // Clears every mark any rule sets on its records, before the judge sets a judgement's marks.
  void (*clear_marks)(Records& records);
  // Sets `mark` on its record when it is a mark of the phase's records (a key past the end of the list
  // sets nothing); false for another phase's mark.
  bool (*set_mark)(Records& records, const RecordMark& mark);
  // The beside_tenant mark of each of its records measured on a GPU that `shared` lists for the phase
  // (the tenancy family's whole-run pass).
  void (*beside_tenant_marks)(const Records& records, const SharedGpus& shared, const RuleContext& context,
                              std::vector<RecordMark>& out);
  // How much of `item`, one of its planned items (item.phase is its name), its records hold; `completed`:
  // the run's phases_completed lists the phase.
  ItemMeasured (*measured)(const Records& records, const results::PlannedItem& item, bool completed);
  // Each of its records, measured or skipped with the reason: a phase that ran and skipped every one
  // measured nothing, which fails the verdict (null: the phase is not judged so).
  void (*count_skips)(const Records& records, RecordSkips& out);
  // What the coverage says of one of its planned items beyond its count (null: the defaults, ItemTraits).
  ItemTraits (*item_traits)(const results::PlannedItem& item);
};

// Each registered phase's records and rules (defined in judge/<Name>Checks.cpp).
#define GPUSCALE_PHASE(name, member, records, json) \
  namespace phases::name {                          \
  using Records = decltype(RunReport::member);      \
  extern const PhaseRulesOf<Records> kRules;        \
  }
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE

// A phase's rules over a whole report, reading its records from RunReport's member: what the judge
// (Judge.hpp), the coverage (Coverage.hpp), the verdict (VerdictRules.hpp) and the tenancy family
// (TenancyChecks.hpp) read, naming no phase. The pointers null in its PhaseRulesOf are null here.
struct PhaseRules {
  // Its rule family; its name and phase are the phase's name.
  RuleFamily family;
  void (*clear_marks)(RunReport& report);
  bool (*set_mark)(RunReport& report, const RecordMark& mark);
  void (*beside_tenant_marks)(const RunReport& report, const SharedGpus& shared, std::vector<RecordMark>& out);
  ItemMeasured (*measured)(const RunReport& report, const results::PlannedItem& item);
  void (*count_skips)(const RunReport& report, RecordSkips& out);
  ItemTraits (*item_traits)(const results::PlannedItem& item);
};

// Every phase's, in the registry's order (results/base/PhaseRegistry.def): the order a run's phases go.
std::span<const PhaseRules* const> all_phase_rules();
// The phase named `phase`'s; nullptr for a name the registry does not hold.
const PhaseRules* find_phase_rules(std::string_view phase);

// Applies a mark to records[index], the record it is keyed by, where there is one; true, for a set_mark
// to return: the mark was the phase's.
template <class T, class Apply>
bool set_at(std::vector<T>& records, std::size_t index, Apply&& apply) {
  if (index < records.size()) apply(records[index]);
  return true;
}

}  // namespace gpuscale::judge
