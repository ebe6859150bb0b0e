#pragma once
// Node-health rules over every rank's env record: tenancy (gpu-in-use), NCCL plugins
// (nccl-plugin-mismatch) and RDMA adapters (nic-down, nic-rate-mismatch, gdr-unavailable). Pure: rank
// 0 runs them beside the other env checks, and unit tests feed them synthetic records.
#include <vector>

#include "results/Check.hpp"
#include "results/RankEnv.hpp"

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

void tenancy_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out);
void nccl_plugin_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out);
void adapter_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out);

}  // namespace gpuscale::results
