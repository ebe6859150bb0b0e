#include "results/base/PlanRecord.hpp"


#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {
GPUSCALE_JSON_FROM_FIELDS(PlannedItem)
GPUSCALE_JSON_FROM_FIELDS(RunPlanRecord)
GPUSCALE_JSON_FROM_FIELDS(CoverageItem)

}  // namespace gpuscale::results
