#pragma once
// The links phase: host-to-device and device-to-host copies, pinned and pageable, on one GPU of each
// node at a time (turns by local rank, the nodes in parallel) with the PCIe link sampled meanwhile,
// then on every GPU at once after a barrier; then device memory bandwidth on every GPU. NVLink state
// and error counters are read before and after, XID events collected over the phase. Rank 0 gathers a
// record per rank and adds the links checks. Collective. The turns and copies are the links
// workload's (workloads/LinksRun.hpp); the phase adds the probes, the monitor and the gather.
#include "launch/Job.hpp"

namespace gpuscale::launch {

void run_links_phase(Job& job);

}  // namespace gpuscale::launch
