#include "phases/burn/BurnRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

// A pair [t_s, flops], not an object: a burn writes thousands of them.
void to_json(nlohmann::json& j, const BurnProgress& p) { j = {p.t_s, p.flops}; }
void from_json(const nlohmann::json& j, BurnProgress& p) {
  p.t_s = j.at(0).get<double>();
  p.flops = j.at(1).get<double>();
}

GPUSCALE_JSON_FROM_FIELDS(BurnSample)
GPUSCALE_JSON_FROM_FIELDS(BurnCounters)
GPUSCALE_JSON_FROM_FIELDS(BurnWindow)
GPUSCALE_JSON_FROM_FIELDS(BurnRecord)

}  // namespace gpuscale::results
