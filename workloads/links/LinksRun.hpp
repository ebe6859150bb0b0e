#pragma once
// The links workload across the job, as HostLinkBench is one rank's: the host copies on one GPU of
// each node at a time (turn t is local rank t's on every node at once) with the PCIe link sampled
// meanwhile, then on every GPU of the node at once (the PCIe and NUMA contention a data loader
// meets), then device memory on every GPU. Prints nothing.
#include "harness/Backend.hpp"
#include "harness/LinkMonitor.hpp"
#include "harness/World.hpp"
#include "phases/links/LinksRecord.hpp"
#include "workloads/links/HostLinks.hpp"

namespace gpuscale::workloads {

// Collective: every rank calls it. Fills this rank's `mine.copies`, `mine.pcie` (from `monitor`,
// sampled during its own turn) and `mine.hbm`; timeout_s bounds every wait between the ranks.
void run_links(harness::World& world, harness::Backend& backend, const LinkOptions& options,
               harness::LinkMonitor& monitor, double timeout_s, results::LinksRecord& mine);

}  // namespace gpuscale::workloads
