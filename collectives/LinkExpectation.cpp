#include "collectives/LinkExpectation.hpp"

#include <algorithm>
#include <set>

namespace gpuscale::collectives {

// Per link and direction, from the signalling rate of the lanes (what the wire carries), so that
// % of link never exceeds 100 for a protocol that is more efficient than we assume:
//   NVLink1 (P100): 8 lanes x 20 Gb/s                 = 20 GB/s
//   NVLink2 (V100): 8 lanes x 25.78125 Gb/s           = 25.78 GB/s
//   NVLink3 (A100): 4 lanes x 51.5625 Gb/s            = 25.78 GB/s
//   NVLink4 (H100/H200): 2 lanes x 106.25 Gb/s (PAM4) = 26.5625 GB/s; NV18 = 478 GB/s, the figure
//     the issue states. NVIDIA's "900 GB/s" is 18 x 25 GB/s x 2 directions of payload, so 450 GB/s
//     per direction is the data-rate ceiling and NCCL's allreduce busbw on NV18 tops out near 370-390.
//   NVLink5 (B200): 2 lanes x 212.5 Gb/s               = 53.125 GB/s
double nvlink_gbps_per_link(int version) {
  switch (version) {
    case 1: return 20.0;
    case 2:
    case 3: return 25.78125;
    case 4: return 26.5625;
    case 5: return 53.125;
    default: return 0;
  }
}

// Per lane and direction after line coding: gen1/2 8b/10b, gen3-5 128b/130b, gen6 FLIT (~242/256).
double pcie_gbps(unsigned gen, unsigned width) {
  static constexpr double kLane[] = {0, 0.25, 0.5, 0.9846, 1.9692, 3.9385, 7.5630};
  if (gen == 0 || gen > 6) return 0;
  return kLane[gen] * width;
}

namespace {

LinkEstimate gpu_link(const results::GpuInfo& g) {
  double nv = 0;
  int links = 0, version = 0;
  for (const auto& l : g.nvlinks) {
    nv += l.link_count * nvlink_gbps_per_link(l.version);
    links += l.link_count;
    version = std::max(version, l.version);
  }
  if (nv > 0) return {nv, "NVLink" + std::to_string(version) + " x" + std::to_string(links)};
  if (g.pcie_gen && g.pcie_width && pcie_gbps(*g.pcie_gen, *g.pcie_width) > 0)
    return {pcie_gbps(*g.pcie_gen, *g.pcie_width),
            "PCIe gen" + std::to_string(*g.pcie_gen) + " x" + std::to_string(*g.pcie_width)};
  return {std::nullopt, ""};
}

}  // namespace

LinkEstimate link_for(const std::vector<results::RankEnv>& ranks, double net_gbps) {
  LinkEstimate slowest{std::nullopt, ""};
  std::set<int> nodes;
  for (const auto& r : ranks) {
    nodes.insert(r.node);
    if (!r.gpu) return {std::nullopt, ""};
    const auto link = gpu_link(*r.gpu);
    if (!link.gbps) return link;
    if (!slowest.gbps || *link.gbps < *slowest.gbps) slowest = link;
  }
  if (nodes.size() <= 1) return slowest;
  if (net_gbps <= 0) return {std::nullopt, "network (unknown: give --net-gbps)"};
  if (slowest.gbps && *slowest.gbps < net_gbps) return slowest;
  return {net_gbps, "network (--net-gbps)"};
}

void apply_link(results::CollectiveSweep& sweep, const LinkEstimate& link) {
  auto& h = sweep.headline;
  h.link = link.name;
  h.link_gbps = link.gbps;
  h.peak_percent_of_link.reset();
  if (link.gbps && *link.gbps > 0) h.peak_percent_of_link = 100.0 * h.peak_busbw_gbps / *link.gbps;
}

}  // namespace gpuscale::collectives
