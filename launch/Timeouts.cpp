#include "launch/Timeouts.hpp"

#include <cstdlib>
#include <sstream>

#include "harness/Error.hpp"
#include "launch/PhaseTable.hpp"
#include "launch/base/OptionValue.hpp"

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
