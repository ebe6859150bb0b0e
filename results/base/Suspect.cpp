#include "results/base/Suspect.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(Suspect)

void write_suspects(nlohmann::json& isolation, const SuspectList& suspects) {
  isolation["suspects"] = suspects.ranked;
  if (suspects.not_rejudged) isolation["suspects_not_rejudged"] = true;
}

void read_suspects(const nlohmann::json& isolation, SuspectList& out) {
  out = {};
  if (const auto it = isolation.find("suspects"); it != isolation.end()) it->get_to(out.ranked);
  if (const auto it = isolation.find("suspects_not_rejudged"); it != isolation.end()) it->get_to(out.not_rejudged);
}

}  // namespace gpuscale::results
