#pragma once
// The cross-rank consistency and health checks over every rank's environment record. Pure: rank 0
// runs them on the gathered records, and unit tests feed them synthetic ones.
#include <vector>

#include "judge/base/PhaseRulesOf.hpp"
#include "results/base/Check.hpp"
#include "results/world/GpuTenants.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::judge {

// Free device memory under this fraction of the total raises low-free-memory.
inline constexpr double kLowFreeMemoryFraction = 0.9;

// `busy_utilization_pct`: the report's (RunReport::busy_utilization_pct), for gpu-in-use.
std::vector<results::Check> run_env_checks(const std::vector<results::RankEnv>& ranks,
                                           double busy_utilization_pct = results::kDefaultBusyUtilizationPct);

// Env's rules, which the judge reads through its table (judge/PhaseRules.hpp).
namespace phases::env {
using Records = std::vector<results::RankEnv>;
extern const PhaseRulesOf<Records> kRules;
}  // namespace phases::env

}  // namespace gpuscale::judge
