#include "results/schema/Projection.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(NcclModelPoint)
GPUSCALE_JSON_FROM_FIELDS(TierFit)
GPUSCALE_JSON_FROM_FIELDS(ProjectedCollective)
GPUSCALE_JSON_FROM_FIELDS(ProjectedDdpStep)
GPUSCALE_JSON_FROM_FIELDS(Projection)

}  // namespace gpuscale::results
