#include "results/schema/FitRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(AlphaBetaFit)

}  // namespace gpuscale::results
