#pragma once
// Tenancy for the whole run. env lists the processes on every GPU once; this looks again at the end
// of every phase (so also at the run's end), with every rank idle after a barrier: NVML's processes
// on each rank's GPU, with those a sampler listed during the phase, and a few utilization samples
// taken while the job is idle (a second look a utilization period later where the first reads busy).
// The looks are measurements (results/schema/MidRunTenancy.hpp, RunReport::tenancy_looks); who is a
// tenant, and which phases were measured beside one, the judge decides from them
// (judge/MidRunTenants.hpp), here for the progress line and at every judgement of the report. About
// 0.3 s per boundary on a GPU (the idle samples; 1.3 s more where they read busy); on the CPU backend
// only the test seam's processes are listed, at no wait.
#include <functional>
#include <string>
#include <vector>

#include "harness/World.hpp"
#include "results/schema/RunReport.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::launch {

// What a boundary's look needs of the job (the Job hands its own).
struct BoundaryInputs {
  harness::World& world;
  double timeout_s;             // any single wait's (Job::timeout_s)
  results::RunReport& report;   // rank 0 adds the looks to it
  std::function<void(const std::string&)> progress;  // the progress line
};

// Utilization samples at a boundary, kTenancySampleGapS apart after one gap of idleness.
inline constexpr int kBoundarySamples = 3;
// NVML's utilization covers its last sample period, between 1/6 s and 1 s by GPU model (nvml.h,
// nvmlDeviceGetUtilizationRates): a busy look is confirmed after the longest.
inline constexpr double kUtilizationPeriodS = 1.0;

class TenancyWatch {
 public:
  // Every rank, with its own env record (after env's tenancy probe).
  explicit TenancyWatch(const results::RankEnv& own);

  // Collective: every rank at the end of `phase`. Rank 0 adds the looks to the report, and says on
  // the progress line when the judge finds a process that appeared during the phase.
  void at_boundary(const std::string& phase, const BoundaryInputs& job);
  // Local: processes a sampler listed on this rank's GPU during the phase (burn's LoadSampler); the
  // phase's boundary adds them to its look, so one that left before it counts too.
  void seen_during_phase(const std::vector<results::GpuProcess>& processes);

 private:
  std::string pci_bus_id_, backend_;
  int rank_ = -1;
  std::vector<results::GpuProcess> seen_;  // by a sampler since the last boundary
};

}  // namespace gpuscale::launch
