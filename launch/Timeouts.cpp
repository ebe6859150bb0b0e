#include "launch/Timeouts.hpp"

#include <cstdlib>
#include <sstream>

#include "harness/Error.hpp"
#include "launch/OptionValue.hpp"
#include "launch/Phases.hpp"

namespace gpuscale::launch {
namespace {

double parse_seconds(const std::string& text, const std::string& item) {
  char* end = nullptr;
  const double s = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(s > 0) || !(s <= kMaxTimeoutS))
    throw harness::UsageError("--timeout: '" + item + "' is not a number of seconds in (0, " +
                              std::to_string(static_cast<long long>(kMaxTimeoutS)) + "]");
  return s;
}

std::string phase_names() {
  std::string names;
  for (const auto& p : phase_table()) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

}  // namespace

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

PhaseTimeouts parse_timeouts(const std::string& text) {
  PhaseTimeouts out;
  for (const auto& item : split_list(text, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      out.set_all(parse_seconds(item, item));
      continue;
    }
    const std::string phase = item.substr(0, eq);
    if (!find_phase_spec(phase))
      throw harness::UsageError("--timeout: unknown phase '" + phase + "' in '" + item + "' (phases: " + phase_names() +
                                ")");
    out.set(phase, parse_seconds(item.substr(eq + 1), item));
  }
  return out;
}

std::string describe(const PhaseTimeouts& t) {
  std::ostringstream out;
  for (const auto& p : phase_table())
    out << (p.name == phase_table().front().name ? "" : ", ") << p.name << ' ' << t.for_phase(p.name);
  return out.str();
}

}  // namespace gpuscale::launch
