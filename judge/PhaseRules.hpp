#pragma once
// What the judge knows of a phase, in one place: a PhaseRules, which the phase's family file
// judge/<Name>Checks.cpp (NAME with its first letter capitalised) defines as `phases::NAME::kRules` for
// each line GPUSCALE_PHASE(NAME) of results/schema/PhaseRegistry.def, as launch/phases/NAME/ defines
// launch's `phases::NAME::kPhase`. The judge (Judge.hpp) reads it here and names no phase.
#include <span>
#include <string_view>

#include "judge/Rule.hpp"

namespace gpuscale::judge {

struct PhaseRules {
  // The rules over the phase's records; its name and phase are the phase's name.
  RuleFamily family;
};

// Every phase's, in the registry's order (results/schema/PhaseRegistry.def): the order a run's phases go.
std::span<const PhaseRules* const> all_phase_rules();
// The phase named `phase`'s; nullptr for a name the registry does not hold.
const PhaseRules* find_phase_rules(std::string_view phase);

}  // namespace gpuscale::judge
