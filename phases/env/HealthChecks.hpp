#pragma once
// Node-health rules over every rank's env record: tenancy (gpu-in-use), NCCL plugins
// (nccl-plugin-mismatch) and RDMA adapters (nic-down, nic-rate-mismatch, gdr-unavailable). Pure: rank
// 0 runs them beside the other env checks, and unit tests feed them synthetic records.
#include <vector>

#include "results/base/Check.hpp"
#include "results/world/GpuTenants.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// gpu-in-use from results/world/GpuTenants.hpp's foreign processes and utilization (busy from
// `busy_utilization_pct`, the report's).
void tenancy_checks(const std::vector<results::RankEnv>& ranks, std::vector<results::Check>& out,
                    double busy_utilization_pct = results::kDefaultBusyUtilizationPct);
void nccl_plugin_checks(const std::vector<results::RankEnv>& ranks, std::vector<results::Check>& out);
void adapter_checks(const std::vector<results::RankEnv>& ranks, std::vector<results::Check>& out);

}  // namespace gpuscale::judge
