#include "phases/train/TraceSpan.hpp"

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(TraceSpan)

}  // namespace gpuscale::results
