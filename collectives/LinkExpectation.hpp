#pragma once
// The link a communicator's traffic crosses, from the env phase's topology, so that busbw can be read
// as a fraction of what the hardware promises. GB/s per direction (1e9 B/s).
#include <optional>
#include <string>
#include <vector>

#include "phases/collectives/CollectiveRecords.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::collectives {

struct LinkEstimate {
  std::optional<double> gbps;  // nullopt: unknown (no topology, or between nodes without --net-gbps)
  std::string name;            // "NVLink4 x18", "PCIe gen5 x16", "network (--net-gbps)"
};

// One NVLink of this generation (1-5: NVLink1..NVLink5), one direction; 0 for an unknown generation.
double nvlink_gbps_per_link(int generation);
// The NVLink generation (4 for H100/H200) of NVML's nvmlNvlinkVersion_t (6 = NVLink 4.0); 0: unknown.
int nvlink_generation(int nvml_version);
// One direction of a PCIe link; 0 for an unknown generation.
double pcie_gbps(unsigned gen, unsigned width);

// Within a node: NVLink when every pair of the ranks' GPUs has an NVLink path (GpuInfo::peers'
// nvlink_count, direct or through NVSwitches: NCCL spreads channels over all of them), at the smallest
// pair's link count; else the slowest member's PCIe link; unknown for a single GPU. Across nodes:
// net_gbps (0: unknown) or the slowest node's intra-node link if slower.
LinkEstimate link_for(const std::vector<results::RankEnv>& ranks, double net_gbps);

// Sets the headline's link, link figure and peak as % of it.
void apply_link(results::CollectiveSweep& sweep, const LinkEstimate& link);

}  // namespace gpuscale::collectives
