#include "phases/collectives/CollectiveRecords.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(CollectiveTiming)
GPUSCALE_JSON_FROM_FIELDS(CollectiveRow)
GPUSCALE_JSON_FROM_FIELDS(CollectiveHeadline)
GPUSCALE_JSON_FROM_FIELDS(CollectiveSweep)
GPUSCALE_JSON_FROM_FIELDS(ScalingPoint)
GPUSCALE_JSON_FROM_FIELDS(PairResult)
GPUSCALE_JSON_FROM_FIELDS(PairMatrix)
GPUSCALE_JSON_FROM_FIELDS(NodeLocalResult)
GPUSCALE_JSON_FROM_FIELDS(NodeRound)
GPUSCALE_JSON_FROM_FIELDS(BisectionStep)
GPUSCALE_JSON_FROM_FIELDS(IsolationRecord)
GPUSCALE_JSON_FROM_FIELDS(NcclModelEntry)
GPUSCALE_JSON_FROM_FIELDS(NcclModel)
GPUSCALE_JSON_FROM_FIELDS(CollectivesRecord)

}  // namespace gpuscale::results
