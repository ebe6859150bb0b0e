#include "collectives/LinkExpectation.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>

#include "results/base/Format.hpp"

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
double nvlink_gbps_per_link(int generation) {
  switch (generation) {
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

int nvlink_generation(int nvml_version) {
  // nvmlNvlinkVersion_t: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1, 6 = 4.0, 7 = 5.0, 8 = 6.0.
  static constexpr int kGeneration[] = {0, 1, 2, 2, 3, 3, 4, 5, 6};
  if (nvml_version < 0 || nvml_version >= static_cast<int>(std::size(kGeneration))) return 0;
  return kGeneration[nvml_version];
}

namespace {

// NVLinks NVML says connect `from` to `to` (direct or through NVSwitches); 0 when it lists none. The
// far end of a link cannot name the peer on NVSwitch systems (a switch, or ffff:ff:ff.0 in a VM), so
// the per-peer figure is the only one that says whether two GPUs talk over NVLink.
int nvlinks_between(const results::GpuInfo& from, const results::GpuInfo& to) {
  const std::string bus = results::normalize_pci_bus_id(to.pci_bus_id);
  for (const auto& p : from.peers)
    if (results::normalize_pci_bus_id(p.peer_pci_bus_id) == bus) return p.nvlink_count;
  return 0;
}

// The NVLink generation of a GPU's links (the newest group it reports; 0: unknown).
int gpu_nvlink_generation(const results::GpuInfo& g) {
  int version = 0;
  for (const auto& l : g.nvlinks) version = std::max(version, l.version);
  return nvlink_generation(version);
}

LinkEstimate pcie_link(const std::vector<const results::GpuInfo*>& gpus) {
  LinkEstimate slowest{std::nullopt, ""};
  for (const auto* g : gpus) {
    if (!g->pcie_gen || !g->pcie_width || pcie_gbps(*g->pcie_gen, *g->pcie_width) <= 0) return {std::nullopt, ""};
    const double gbps = pcie_gbps(*g->pcie_gen, *g->pcie_width);
    if (!slowest.gbps || gbps < *slowest.gbps)
      slowest = {gbps, "PCIe gen" + std::to_string(*g->pcie_gen) + " x" + std::to_string(*g->pcie_width)};
  }
  return slowest;
}

// GPUs of one node: NVLink when every pair has an NVLink path (the pair with the fewest links and the
// oldest generation set the pace), else the slowest member's PCIe link. One GPU: no link to cross.
LinkEstimate node_link(const std::vector<const results::GpuInfo*>& gpus) {
  if (gpus.size() < 2) return {std::nullopt, ""};
  int links = std::numeric_limits<int>::max(), generation = std::numeric_limits<int>::max();
  for (const auto* a : gpus) {
    generation = std::min(generation, gpu_nvlink_generation(*a));
    for (const auto* b : gpus)
      if (a != b) links = std::min(links, nvlinks_between(*a, *b));
  }
  if (links <= 0) return pcie_link(gpus);
  const std::string name = "NVLink" + (generation > 0 ? std::to_string(generation) : "?") + " x" + std::to_string(links);
  const double gbps = links * nvlink_gbps_per_link(generation);
  if (gbps <= 0) return {std::nullopt, name};
  return {gbps, name};
}

}  // namespace

LinkEstimate link_for(const std::vector<results::RankEnv>& ranks, double net_gbps) {
  // Distinct GPUs per node (ranks sharing a GPU cross no link between them).
  std::map<int, std::map<std::string, const results::GpuInfo*>> nodes;
  for (const auto& r : ranks) {
    if (!r.gpu) return {std::nullopt, ""};
    nodes[r.node].emplace(results::normalize_pci_bus_id(r.gpu->pci_bus_id), &*r.gpu);
  }
  LinkEstimate slowest{std::nullopt, ""};
  for (const auto& [node, by_bus] : nodes) {
    std::vector<const results::GpuInfo*> gpus;
    for (const auto& [bus, gpu] : by_bus) gpus.push_back(gpu);
    const auto link = node_link(gpus);
    if (nodes.size() <= 1) return link;
    if (link.gbps && (!slowest.gbps || *link.gbps < *slowest.gbps)) slowest = link;
  }
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
