#pragma once
// Who else is on a job's GPU: the processes that belong to no rank of the job, and whether the GPU
// was busy while the job was not. One arithmetic for env's look before any work (phases/env/HealthChecks)
// and the looks after every phase (judge/MidRunTenants), and the env figures read it too; the live
// watch (launch/TenancyWatch) asks it whether a look read busy.
#include <cstddef>
#include <optional>
#include <vector>

#include "results/base/RuleInputRanges.hpp"  // kDefaultBusyUtilizationPct
#include "results/world/RankEnv.hpp"

namespace gpuscale::results {

// Which ranks of the job may hold a context on a GPU: before any communicator, those bound to it;
// after the phases, every rank of its node (peer access opens a context on the peer's GPU).
enum class JobContexts { bound_to_gpu, on_its_node };

// The processes of `listed` (seen on ranks[index]'s GPU) that belong to no rank of the job: PIDs of
// ranks on the same host are the job's. Where a PID namespace hides the job's own PIDs from NVML's
// list, as many unnamed compute processes as `contexts` ranks, less the job's PIDs listed, count as
// the job's.
std::vector<GpuProcess> foreign_processes(const std::vector<RankEnv>& ranks, std::size_t index,
                                          const std::vector<GpuProcess>& listed, JobContexts contexts);
// Env's look: ranks[index].tenancy.processes, bound_to_gpu.
std::vector<GpuProcess> foreign_processes(const std::vector<RankEnv>& ranks, std::size_t index);
// Mean of the utilization samples; nullopt when none were taken.
std::optional<double> mean_utilization_pct(const std::vector<unsigned>& samples);
std::optional<double> mean_utilization_pct(const Tenancy& tenancy);
// Whether samples read busy: their mean at least `threshold_pct`.
bool reads_busy(const std::vector<unsigned>& samples, double threshold_pct);

}  // namespace gpuscale::results
