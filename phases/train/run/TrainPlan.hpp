#pragma once
// What the training phase runs, parsed from the command line. Pure (no MPI, no device), so the
// parsing is unit-tested; bad input throws harness::UsageError with one line.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "launch/base/Profile.hpp"
#include "workloads/train/TrainRun.hpp"

namespace gpuscale::launch {

using workloads::TrainPlan;  // what the training workload runs (workloads/train/TrainRun.hpp)

using workloads::kTunedCommCtas;  // --comm-ctas takes 0..this

// The phase's part of the RunPlan: the workload's plan, and what the phase hands its run beside it
// from the common options, so that nothing reads the command line after planning.
struct TrainPhasePlan {
  TrainPlan train;
  unsigned long long seed = 1;  // --seed
  bool trace = false;           // --trace: rank 0 keeps a few steps' spans per rank
};

// The whole-job run's training phase, unless the command line says otherwise: cudnnFind alone (the
// graph plans timed in every DP replica's fresh context) and a second communicator per DDP size with
// the timed CTA trials do not fit its time budget.
inline constexpr workloads::AlgoSearch kWholeJobConvSearch = workloads::AlgoSearch::find;
inline constexpr const char* kWholeJobCommCtas = "0";

// The options of `gpuscale train` (the phase reads its defaults where a command lacks them).
void add_train_options(cxxopts::Options& options);

// Defaults: the plan's initialisers, and where --quick or the backend (cpu) changes them the profile
// (Profile.hpp: models, precisions, steps, the cpu backend's small depth, width and batch, CTAs).
// whole_job (the training phase of the whole-job run, not `gpuscale train`): kWholeJob* above.
TrainPlan parse_train_plan(const cxxopts::ParseResult& options, const TrainProfile& profile, bool whole_job = false);

// 1, 2, 4, ... below world_size, then world_size.
std::vector<int> default_ddp_sizes(int world_size);

}  // namespace gpuscale::launch
