#pragma once
// What a phase's run (phases/NAME/run/NAMEPhase.cpp) may use, and nothing more: the world, this
// rank's backend, its plan, its deadlines, its hooks into the job, and the one thing an earlier phase
// left that later phases read (env's records). The Job builds one for each phase as it begins
// (Job::phase_context); the phase returns its records and the PhaseSpec's run (PhaseRun.hpp) keeps
// them. Nothing here reads the command line: what a phase takes from it (sizes, --seed, --trace) is
// in its plan, resolved once before MPI starts (RunPlan.hpp).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/Backend.hpp"
#include "harness/Deadline.hpp"
#include "harness/RunHooks.hpp"
#include "harness/World.hpp"
#include "launch/base/RunPlan.hpp"
#include "results/base/Check.hpp"
#include "results/world/HealthRecords.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::launch {

struct PhaseContext {
  std::string_view phase;  // the phase's name, the key of its part of the plan
  harness::World& world;
  harness::Backend& backend;  // this rank's device
  const RunPlan& run_plan;
  // Seconds any single wait of the phase may take (--timeout PHASE=S; Timeouts.hpp): the phase's
  // one source of time, read afresh for each wait through deadline().
  double timeout_s;
  // The job's progress line, its clock and the phase's share of the budget (its gate, items and
  // drops), as a workload's run reports to them; the phase hands them on to its run.
  harness::RunHooks hooks;
  // Local: processes a sampler listed on this rank's GPU during the phase, judged at the phase's
  // boundary (TenancyWatch.hpp).
  std::function<void(const std::vector<results::GpuProcess>&)> tenancy_seen;
  // Rank 0: every rank's env record, as the env phase left them (host names, CPU affinity, links);
  // empty on the other ranks and before env ran. Read-only.
  const std::vector<results::RankEnv>& ranks;
  // The env phase's: the backend fell back to the CPU, and why CUDA could not be used ("" if it could).
  bool backend_fell_back = false;
  std::string cuda_unusable;
  // The env phase's, rank 0: its records as gathered, before its smoke allreduce. The job keeps them
  // at once (so a failure later in the phase still writes them) and returns the env rule family's
  // checks on them, which decide whether GPU work runs.
  std::function<std::vector<results::Check>(const std::vector<results::RankEnv>&)> env_gathered;

  // The phase's own part of the plan, of the type its PhaseSpec::plan set.
  template <class Plan>
  const Plan& plan() const {
    return run_plan.get<Plan>(phase);
  }
  harness::Deadline deadline() const { return harness::Deadline::after(timeout_s); }
  // Local: a step for the progress line (rank 0 prints it unless --quiet).
  void progress(const std::string& step) const { hooks.progress(step); }
};

}  // namespace gpuscale::launch
