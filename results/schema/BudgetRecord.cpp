#include "results/schema/BudgetRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(PhaseBudget)
GPUSCALE_JSON_FROM_FIELDS(BudgetRecord)

}  // namespace gpuscale::results
