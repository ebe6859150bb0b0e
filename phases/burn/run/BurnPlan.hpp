#pragma once
// What the burn phase runs: `gpuscale burn`'s options over the profile's burn (Profile.hpp). Pure;
// bad input throws harness::UsageError with one line.
#include <cxxopts.hpp>

#include "launch/base/Profile.hpp"
#include "workloads/burn/Burn.hpp"

namespace gpuscale::launch {

struct BurnPlan {
  workloads::BurnOptions burn;
};

// The options of `gpuscale burn`.
void add_burn_options(cxxopts::Options& options);
// `own_command`: `gpuscale burn`, whose --burn-s defaults to kBurnCommandSeconds; otherwise the
// short burn of the whole-job run, the profile's seconds (the run has no burn options).
BurnPlan parse_burn_plan(const cxxopts::ParseResult& r, const Profile& profile, bool own_command);

}  // namespace gpuscale::launch
