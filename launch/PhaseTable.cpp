#include "launch/PhaseTable.hpp"

namespace gpuscale::launch {

// Each registered phase's spec, defined in its folder (phases/NAME/run/).
#define GPUSCALE_PHASE(name, ...) \
  namespace phases::name {   \
  extern const PhaseSpec kPhase; \
  }
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE

std::span<const PhaseSpec> phase_table() {
  static const PhaseSpec kPhases[] = {
#define GPUSCALE_PHASE(name, ...) phases::name::kPhase,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
  };
  return kPhases;
}

const PhaseSpec* find_phase_spec(std::string_view name) {
  for (const auto& p : phase_table())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace gpuscale::launch
