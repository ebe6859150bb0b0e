#pragma once
// Who else uses this rank's GPU, before any rank starts work: NVML's compute and graphics processes
// (named from /proc/PID/comm where this PID namespace shows them) and a few samples of utilization
// and memory in use over about half a second. Local: no communication; every rank calls it before
// the env records are gathered, so no rank has started GPU work while another samples.
#include "results/world/RankEnv.hpp"

namespace gpuscale::probes {

inline constexpr int kTenancySamples = 5;
inline constexpr double kTenancySampleGapS = 0.1;

// Fills env.tenancy for env.gpu (nothing to list without a GPU or NVML: unavailable_reason says
// why), then adds GPUSCALE_TEST_FOREIGN_PROCESS's processes (harness/FaultInjection.hpp).
void probe_tenancy(results::RankEnv& env);

// The same look, at any time: NVML's processes on the GPU at `pci_bus_id` (empty: no GPU; `backend`
// says why in unavailable_reason) and `samples` utilization samples kTenancySampleGapS apart, the
// first after one gap, so that the GPU has been idle that long when the job is. Local.
results::Tenancy look_at_gpu(const std::string& pci_bus_id, const std::string& backend, int samples);

// The process name /proc/PID/comm holds, "" where it cannot be read (exited, another PID namespace).
std::string process_name(int pid);

}  // namespace gpuscale::probes
