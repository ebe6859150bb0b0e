#pragma once
// gpu-in-use for the processes that appeared on a job's GPU after env (results/schema/MidRunTenancy.hpp).
#include <vector>

#include "results/schema/Check.hpp"
#include "results/schema/MidRunTenancy.hpp"

namespace gpuscale::judge {

// One finding per tenant: error when it computes (or the GPU was busy), warning when it only holds
// memory. Names the phase, PID, process name and memory.
void midrun_tenancy_checks(const std::vector<results::MidRunTenant>& tenants, std::vector<results::Check>& out);

}  // namespace gpuscale::judge
