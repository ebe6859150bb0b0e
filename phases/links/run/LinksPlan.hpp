#pragma once
// What the links phase runs: `gpuscale links`'s options over the profile's links row (Profile.hpp).
// Pure; bad input throws harness::UsageError with one line.
#include <cxxopts.hpp>

#include "launch/base/Profile.hpp"
#include "workloads/links/HostLinks.hpp"

namespace gpuscale::launch {

struct LinksPlan {
  workloads::LinkOptions links;
};

// The options of `gpuscale links`.
void add_links_options(cxxopts::Options& options);
// From the command's options over the profile's links row (`run` has no links options).
LinksPlan parse_links_plan(const cxxopts::ParseResult& r, const Profile& profile);

}  // namespace gpuscale::launch
