#include "results/schema/MidRunTenancy.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {
bool measured_shared(const std::vector<std::string>& shared_phases, const std::string& phase) {
  return std::find(shared_phases.begin(), shared_phases.end(), phase) != shared_phases.end();
}

GPUSCALE_JSON_FROM_FIELDS(TenancyLook)
GPUSCALE_JSON_FROM_FIELDS(MidRunTenant)

}  // namespace gpuscale::results
