// JSON of the projection records (results/models/Projection.hpp) through their field lists.
#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"
#include "results/models/Projection.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(NcclModelPoint)
GPUSCALE_JSON_FROM_FIELDS(TierFit)
GPUSCALE_JSON_FROM_FIELDS(ProjectedCollective)
GPUSCALE_JSON_FROM_FIELDS(ProjectedDdpStep)
GPUSCALE_JSON_FROM_FIELDS(Projection)

}  // namespace gpuscale::results
