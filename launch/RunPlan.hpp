#pragma once
// What a command runs, resolved once from its command line and the profile (--quick, the backend):
// every phase runs the plan held here, and the start-up line prints it (describe), so the line says
// what runs. Pure (no MPI, no device); bad input throws harness::UsageError with one line.
#include <optional>
#include <string>

#include "collectives/SweepOptions.hpp"
#include "launch/BurnPlan.hpp"
#include "launch/Cli.hpp"
#include "launch/ComputePlan.hpp"
#include "launch/LinksPlan.hpp"
#include "launch/Profile.hpp"
#include "launch/TrainPlan.hpp"

namespace gpuscale::launch {

struct RunPlan {
  Profile profile;
  // Set for the commands that run the phase, by its PhaseSpec::plan (Phases.hpp).
  std::optional<ComputePlan> compute;
  std::optional<collectives::SweepOptions> collectives;
  std::optional<TrainPlan> train;
  std::optional<BurnPlan> burn;
  std::optional<LinksPlan> links;
};

RunPlan resolve_run_plan(const Invocation& invocation, bool cpu_backend);

// The start-up line: "quick-cpu (budget 15 s): compute 2 shapes in tf32,bf16, 2+5 calls; collectives
// 7 ops, 7 sizes 8..32K, 2+5 iterations; train mlp in bf16, 1+3 steps". Warm-up + timed counts; sizes
// as the options take them.
std::string describe(const RunPlan& plan);

}  // namespace gpuscale::launch
