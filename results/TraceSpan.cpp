#include "results/TraceSpan.hpp"

#include "results/JsonFields.hpp"

namespace gpuscale::results {

GPUSCALE_JSON_FROM_FIELDS(TraceSpan)

}  // namespace gpuscale::results
