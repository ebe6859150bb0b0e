#pragma once
// The links phase: host-to-device and device-to-host copies, pinned and pageable, on one GPU of each
// node at a time (turns by local rank, the nodes in parallel) with the PCIe link sampled meanwhile,
// then on every GPU at once after a barrier; then device memory bandwidth on every GPU. NVLink state
// and error counters are read before and after, XID events collected over the phase. Collective:
// rank 0 returns a record per rank (index = rank, with its host and CPU
// affinity from env's records), the other ranks none. The turns and copies are the links workload's
// (workloads/links/LinksRun.hpp); the phase adds the probes, the monitor and the gather.
#include <vector>

#include "launch/base/PhaseContext.hpp"
#include "phases/links/LinksRecord.hpp"

namespace gpuscale::launch {

std::vector<results::LinksRecord> run_links_phase(PhaseContext& ctx);

}  // namespace gpuscale::launch
