#include "launch/base/PhaseTimeouts.hpp"

#include "launch/PhaseTable.hpp"

namespace gpuscale::launch {

PhaseTimeouts::PhaseTimeouts() {
  for (const auto& p : phase_table()) seconds_.emplace(p.name, p.timeout_s);
}

double PhaseTimeouts::for_phase(std::string_view phase) const {
  const auto it = seconds_.find(phase);
  return it != seconds_.end() ? it->second : bootstrap_s();
}

double PhaseTimeouts::bootstrap_s() const { return seconds_.at(std::string(phase_table().front().name)); }

bool PhaseTimeouts::set(std::string_view phase, double seconds) {
  const auto it = seconds_.find(phase);
  if (it == seconds_.end()) return false;
  it->second = seconds;
  return true;
}

void PhaseTimeouts::set_all(double seconds) {
  for (auto& [phase, s] : seconds_) s = seconds;
}

}  // namespace gpuscale::launch
