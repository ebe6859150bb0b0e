#pragma once
// The phases' names, generated from the registry (PhaseRegistry.def) for every layer: a list written
// by hand anywhere else goes stale when a phase is added (tests/unit/phase_lists.sh fails on one).
#include <algorithm>
#include <iterator>
#include <string_view>

namespace gpuscale::results {

// Every phase, in the registry's order: the order the whole-job run runs them.
inline constexpr std::string_view kPhaseNames[] = {
#define GPUSCALE_PHASE(name, ...) #name,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
};

constexpr bool is_phase(std::string_view name) {
  return std::find(std::begin(kPhaseNames), std::end(kPhaseNames), name) != std::end(kPhaseNames);
}

// Each phase's name as a constant, `phase::compute`: what its records, figures and checks call it.
namespace phase {
#define GPUSCALE_PHASE(name, ...) inline constexpr char name[] = #name;
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
}  // namespace phase

}  // namespace gpuscale::results
