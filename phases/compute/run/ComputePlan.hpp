#pragma once
// What the compute phase measures, parsed from the command line. Pure (no MPI, no device), so the
// parsing is unit-tested; bad input throws harness::UsageError with one line.
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "launch/base/Profile.hpp"
#include "workloads/compute/ComputeRun.hpp"

namespace gpuscale::launch {

using workloads::ComputeItem;
using workloads::ComputePlan;  // what the compute workload measures (workloads/compute/ComputeRun.hpp)

// --layout's value that picks the layout by precision (workloads::auto_layout); its default.
inline constexpr const char* kAutoLayout = "auto";

// "all", or the passes as --passes takes them ("fwd,bwd_weight").
std::string passes_text(workloads::PassSet passes);

// `options` may lack the compute options (the `run` command): defaults apply, from the plan's
// initialisers and, where --quick or the backend changes them, from the profile (Profile.hpp).
ComputePlan parse_compute_plan(const cxxopts::ParseResult& options, const ComputeProfile& profile);

}  // namespace gpuscale::launch
