#pragma once
// Who else is on a job's GPU, from the env records: the processes that belong to no rank of the job,
// and how busy the GPU was before any rank started work. The tenancy rules (judge/HealthChecks.hpp)
// and the env figures read them.
#include <cstddef>
#include <optional>
#include <vector>

#include "results/schema/RankEnv.hpp"

namespace gpuscale::results {

// Mean GPU utilization (percent) before any rank started work above which the GPU counts as busy
// with someone else's kernels even where NVML lists no other process (a PID namespace, MIG).
inline constexpr double kBusyBeforeStartPct = 20.0;

// Processes on ranks[index]'s GPU that belong to no rank of the job: PIDs of ranks on the same host
// are the job's. Where a PID namespace hides the job's own PIDs from NVML's list, as many unnamed
// processes as the job has ranks on that GPU count as the job's.
std::vector<GpuProcess> foreign_processes(const std::vector<RankEnv>& ranks, std::size_t index);
// Mean of the utilization samples; nullopt when none were taken.
std::optional<double> mean_utilization_pct(const Tenancy& tenancy);

}  // namespace gpuscale::results
