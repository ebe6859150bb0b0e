#pragma once
// The burn phase: every GPU of the job runs its GEMM flat out for the burn's seconds, all starting
// together after a barrier, while a thread samples its telemetry; then the output hashes are compared
// across the job. Rank 0 gathers a record per rank and adds the burn checks. Collective.
#include <cxxopts.hpp>

#include "launch/Job.hpp"
#include "workloads/Burn.hpp"

namespace gpuscale::launch {

struct BurnPlan {
  workloads::BurnOptions burn;
  double straggler_threshold = 0.10;
};

// The options of `gpuscale burn`.
void add_burn_options(cxxopts::Options& options);
// From the command's options, or the profile's burn where the command lacks them (`run`). UsageError
// for a bad value. `command_default_s` is the --burn-s a missing option means.
BurnPlan parse_burn_plan(const cxxopts::ParseResult& r, const Profile& profile, double command_default_s);

void run_burn_phase(Job& job);

}  // namespace gpuscale::launch
