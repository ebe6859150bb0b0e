#pragma once
// What the judge knows of a phase, in one place: a PhaseRules, which the phase's family file
// judge/<Name>Checks.cpp (NAME with its first letter capitalised) defines as `phases::NAME::kRules` for
// each line GPUSCALE_PHASE(NAME, ...) of results/base/PhaseRegistry.def, as launch/phases/NAME/ defines
// launch's `phases::NAME::kPhase`. Its rule family, the marks on its records, what it measured of its
// planned items and of its records: the judge (Judge.hpp), the coverage (Coverage.hpp), the verdict
// (VerdictRules.hpp) and the tenancy family (TenancyChecks.hpp) read them here and name no phase.
// Every pointer but the family's judge may be null: the phase has no such part.
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

struct PhaseRules {
  // The rules over the phase's records; its name and phase are the phase's name.
  RuleFamily family;
  // Clears every mark any rule sets on the phase's records, before the judge sets a judgement's marks.
  void (*clear_marks)(RunReport& report);
  // Sets `mark` on its record when it is a mark of the phase's records (a key past the end of the list
  // sets nothing); false for another phase's mark.
  bool (*set_mark)(RunReport& report, const RecordMark& mark);
  // The beside_tenant mark of each of the phase's records measured on a GPU that `shared` lists for the
  // phase (the tenancy family's whole-run pass).
  void (*beside_tenant_marks)(const RunReport& report, const SharedGpus& shared, std::vector<RecordMark>& out);
  // How much of `item`, one of the phase's planned items (item.phase is its name), its records hold.
  ItemMeasured (*measured)(const RunReport& report, const results::PlannedItem& item);
  // Each of its records, measured or skipped with the reason: a phase that ran and skipped every one
  // measured nothing, which fails the verdict (null: the phase is not judged so).
  void (*count_skips)(const RunReport& report, RecordSkips& out);
  // What the coverage says of one of its planned items beyond its count (null: the defaults, ItemTraits).
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
