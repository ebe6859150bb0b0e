#pragma once
// The links phase: host-to-device and device-to-host copies, pinned and pageable, on one GPU of each
// node at a time (turns by local rank, the nodes in parallel) with the PCIe link sampled meanwhile,
// then on every GPU at once after a barrier; then device memory bandwidth on every GPU. NVLink state
// and error counters are read before and after, XID events collected over the phase. Rank 0 gathers a
// record per rank and adds the links checks. Collective.
#include <cstdint>
#include <vector>

#include <cxxopts.hpp>

#include "launch/Job.hpp"
#include "workloads/HostLinks.hpp"

namespace gpuscale::launch {

struct LinksPlan {
  workloads::LinkOptions links;
  double straggler_threshold = 0.10;
};

// The options of `gpuscale links`.
void add_links_options(cxxopts::Options& options);
// From the command's options, or the profile where the command lacks them (`run`). UsageError for a
// bad value.
LinksPlan parse_links_plan(const cxxopts::ParseResult& r, const Profile& profile);

void run_links_phase(Job& job);

}  // namespace gpuscale::launch
