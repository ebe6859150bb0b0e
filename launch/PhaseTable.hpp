#pragma once
// The phases, in one table built from results/base/PhaseRegistry.def: each phase's PhaseSpec
// (PhaseSpec.hpp), defined in its folder phases/NAME/run/. A command is a list of these names
// (Commands.hpp); nothing else lists phases or matches command names.
#include <span>
#include <string_view>

#include "launch/base/PhaseSpec.hpp"

namespace gpuscale::launch {

// Every phase, in the registry's order: the order the whole-job run runs them.
std::span<const PhaseSpec> phase_table();
// The phase called `name`, or nullptr.
const PhaseSpec* find_phase_spec(std::string_view name);

}  // namespace gpuscale::launch
