#include "launch/Timeouts.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "harness/Error.hpp"
#include "launch/OptionValue.hpp"

namespace gpuscale::launch {
namespace {

struct Field {
  const char* phase;
  double PhaseTimeouts::*seconds;
};

constexpr Field kFields[] = {{"env", &PhaseTimeouts::env_s},
                             {"compute", &PhaseTimeouts::compute_s},
                             {"collectives", &PhaseTimeouts::collectives_s},
                             {"train", &PhaseTimeouts::train_s},
                             {"burn", &PhaseTimeouts::burn_s},
                             {"links", &PhaseTimeouts::links_s}};

double parse_seconds(const std::string& text, const std::string& item) {
  char* end = nullptr;
  const double s = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(s > 0) || !(s <= kMaxTimeoutS))
    throw harness::UsageError("--timeout: '" + item + "' is not a number of seconds in (0, " +
                              std::to_string(static_cast<long long>(kMaxTimeoutS)) + "]");
  return s;
}

}  // namespace

double PhaseTimeouts::for_phase(std::string_view phase) const {
  for (const auto& f : kFields)
    if (phase == f.phase) return this->*f.seconds;
  return env_s;
}

PhaseTimeouts parse_timeouts(const std::string& text) {
  PhaseTimeouts out;
  for (const auto& item : split_list(text, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      const double s = parse_seconds(item, item);
      for (const auto& f : kFields) out.*f.seconds = s;
      continue;
    }
    const std::string phase = item.substr(0, eq);
    const auto field = std::find_if(std::begin(kFields), std::end(kFields),
                                    [&](const Field& f) { return phase == f.phase; });
    if (field == std::end(kFields))
      throw harness::UsageError("--timeout: unknown phase '" + phase + "' in '" + item +
                                "' (phases: env, compute, collectives, train, burn, links)");
    out.*field->seconds = parse_seconds(item.substr(eq + 1), item);
  }
  return out;
}

std::string describe(const PhaseTimeouts& t) {
  std::ostringstream out;
  for (const auto& f : kFields) out << (f.phase == kFields[0].phase ? "" : ", ") << f.phase << ' ' << t.*f.seconds;
  return out.str();
}

}  // namespace gpuscale::launch
