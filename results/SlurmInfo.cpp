#include "results/SlurmInfo.hpp"

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(SlurmInfo)

}  // namespace gpuscale::results
