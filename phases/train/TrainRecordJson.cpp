// JSON of the training records: missing measurements are null (JsonFields.hpp), never zero.
#include <nlohmann/json.hpp>

#include "phases/train/TrainRecord.hpp"
#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const DpPhases& p) {
  j = nlohmann::json::object();
  for (const auto& [name, field] : kDpPhaseFields) j[std::string(name) + "_s"] = p.*field;
}

void from_json(const nlohmann::json& j, DpPhases& p) {
  for (const auto& [name, field] : kDpPhaseFields) j.at(std::string(name) + "_s").get_to(p.*field);
}

GPUSCALE_JSON_FROM_FIELDS(TrainRankFigures)
GPUSCALE_JSON_FROM_FIELDS(TrainRecord)
GPUSCALE_JSON_FROM_FIELDS(TrainVerification)
GPUSCALE_JSON_FROM_FIELDS(TrainResults)

}  // namespace gpuscale::results
