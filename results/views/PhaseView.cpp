#include "results/views/PhaseView.hpp"

namespace gpuscale::results {

// Each registered phase's view, defined in results/views/<Name>View.cpp.
#define GPUSCALE_PHASE(name, ...) \
  namespace views::name {    \
  extern const PhaseView kView; \
  }
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE

std::span<const PhaseView> phase_views() {
  static const PhaseView kViews[] = {
#define GPUSCALE_PHASE(name, ...) views::name::kView,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
  };
  return kViews;
}

const PhaseView* find_phase_view(std::string_view name) {
  for (const auto& v : phase_views())
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace gpuscale::results
