#include "judge/base/BesideTenant.hpp"

namespace gpuscale::judge {

bool SharedGpus::shared(std::string_view phase, int rank) const {
  if (always.count(rank)) return true;
  const auto it = by_phase.find(phase);
  return it != by_phase.end() && it->second.count(rank);
}

std::set<int> SharedGpus::ranks_in(std::string_view phase) const {
  auto out = always;
  if (const auto it = by_phase.find(phase); it != by_phase.end()) out.insert(it->second.begin(), it->second.end());
  return out;
}

}  // namespace gpuscale::judge
