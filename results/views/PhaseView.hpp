#pragma once
// What the results know of one phase, in one place: a PhaseViewOf its records, which each phase
// defines in its file phases/NAME/<Name>View.cpp as `views::NAME::kView`, typed
// on the records that results/base/PhaseRegistry.def's line names (`views::NAME::Records`, RunReport's
// member), and a PhaseView, the same over a whole RunReport, which the table phase_views() makes of
// each. Every output that goes phase by phase (figures, the console's tables, the HTML sections,
// charts and headlines, the file's consistency) reads the table, in the registry's order; none lists
// the phases itself.
#include <span>
#include <string_view>

#include "results/base/PhaseViewOf.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {

// A phase's view over a whole report: its PhaseViewOf, reading its records from RunReport's member.
using PhaseView = PhaseViewOf<RunReport>;

// Each registered phase's records and view (defined in its <Name>View.cpp; a phase's folder declares them
// alike in its <Name>View.hpp, and a type that differs from this one fails to link).
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
