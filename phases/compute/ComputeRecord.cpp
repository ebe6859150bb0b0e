#include "phases/compute/ComputeRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(ComputeVerification)
GPUSCALE_JSON_FROM_FIELDS(ComputeRecord)

}  // namespace gpuscale::results
