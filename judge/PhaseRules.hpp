#pragma once
// What the judge knows of a phase, in one place: a PhaseRulesOf its records, which the phase's family
// file phases/NAME/<Name>Checks.cpp (NAME with its first letter capitalised) defines as
// `phases::NAME::kRules` for each line GPUSCALE_PHASE(NAME, ...) of results/base/PhaseRegistry.def, typed
// on the records that line names (`phases::NAME::Records`), as phases/NAME/run/ defines launch's
// `phases::NAME::kPhase`:
// its rule family, the beside_tenant marks of its records, what it measured of its planned items and of its records.
// What it reads of the job beyond its records comes in the RuleContext (Rule.hpp). A PhaseRules is the
// same over a whole RunReport, which the table all_phase_rules() makes of each.
#include <span>
#include <string_view>
#include <vector>

#include "judge/Rule.hpp"
#include "judge/base/PhaseRulesOf.hpp"

namespace gpuscale::judge {

// Each registered phase's records and rules (defined in its <Name>Checks.cpp; a phase's folder declares
// them alike in its <Name>Checks.hpp, and a type that differs from this one fails to link).
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
  void (*beside_tenant_marks)(const RunReport& report, const SharedGpus& shared, const RuleContext& context,
                              std::vector<RecordMark>& out);
  ItemMeasured (*measured)(const RunReport& report, const results::PlannedItem& item);
  void (*count_skips)(const RunReport& report, RecordSkips& out);
  ItemTraits (*item_traits)(const results::PlannedItem& item);
};

// Every phase's, in the registry's order (results/base/PhaseRegistry.def): the order a run's phases go.
std::span<const PhaseRules* const> all_phase_rules();
// The phase named `phase`'s; nullptr for a name the registry does not hold.
const PhaseRules* find_phase_rules(std::string_view phase);

}  // namespace gpuscale::judge
