#pragma once
// Tenancy for the whole run. env lists the processes on every GPU once; this looks again at the end
// of every phase (so also at the run's end), with every rank idle after a barrier: NVML's processes
// on each rank's GPU, less the job's own (every rank's PID on the node, gathered, and what env
// listed, which env judged), and a few utilization samples taken while the job is idle. A process
// that appeared is a gpu-in-use finding naming the phase in which it appeared; the phases its GPU was
// measured beside it are listed with it, and every phase measured beside one as shared
// (results/schema/MidRunTenancy.hpp). About 0.3 s per boundary on a GPU (the
// idle samples; 1.3 s more where they read busy); on the CPU backend only the test seam's processes are
// listed, at no wait.
#include <set>
#include <string>
#include <vector>

#include "results/schema/RankEnv.hpp"

namespace gpuscale::launch {

class Job;

// Utilization samples at a boundary, kTenancySampleGapS apart after one gap of idleness.
inline constexpr int kBoundarySamples = 3;
// NVML's utilization covers its last sample period, between 1/6 s and 1 s by GPU model (nvml.h,
// nvmlDeviceGetUtilizationRates): a busy look is confirmed after the longest.
inline constexpr double kUtilizationPeriodS = 1.0;

class TenancyWatch {
 public:
  // Every rank, with its own env record (after env's tenancy probe).
  explicit TenancyWatch(const results::RankEnv& own);

  // Collective: every rank at the end of `phase`. Rank 0 adds the tenants, their checks and the
  // shared phases to the report.
  void at_boundary(Job& job, const std::string& phase);
  // Local: processes a sampler listed on this rank's GPU during the phase (burn's LoadSampler); the
  // phase's boundary judges them with those it lists itself, so one that left before it counts too.
  void seen_during_phase(const std::vector<results::GpuProcess>& processes);

 private:
  std::string pci_bus_id_, backend_, host_, gpu_;
  int rank_ = -1;
  std::set<int> known_;     // env's processes and, from the first boundary, the host's ranks' PIDs
  std::set<int> reported_;  // tenants already reported
  std::vector<results::GpuProcess> seen_;  // by a sampler since the last boundary
  bool job_pids_gathered_ = false;
  bool busy_reported_ = false;
  std::vector<bool> present_before_;  // rank 0, per rank: a tenant was on its GPU at the last boundary
};

}  // namespace gpuscale::launch
