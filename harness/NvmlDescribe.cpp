// Nvml::describe: a GPU's state and settings for the env record, from the facade's typed questions.
#include <algorithm>
#include <map>

#include "harness/Nvml.hpp"
#include "results/base/Format.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {

namespace {

std::optional<double> watts(const Nvml::Answer<unsigned>& milliwatts) {
  if (!milliwatts.value) return std::nullopt;
  return *milliwatts.value / 1000.0;
}

}  // namespace

// Groups active NVLinks by the PCI device at their far end: NV18 to one GPU is one group of 18. On
// NVSwitch systems the far end is a switch (or, in a VM, hidden as ffff:ff:ff.0).
void Nvml::describe_nvlinks(Device device, results::GpuInfo& gpu) const {
  std::map<std::string, results::NvLinkGroup> groups;
  for (unsigned link = 0; link < kMaxNvLinks; ++link) {
    if (!nvlink_active(device, link).value.value_or(false)) continue;
    const auto remote = nvlink_remote_bus_id(device, link).value;
    if (!remote) continue;
    const std::string bus = results::normalize_pci_bus_id(*remote);
    auto& group = groups[bus];
    group.remote_pci_bus_id = bus;
    ++group.link_count;
    if (group.version == 0) group.version = static_cast<int>(nvlink_version(device, link).value.value_or(0));
  }
  gpu.nvlinks.clear();
  for (auto& [bus, group] : groups) gpu.nvlinks.push_back(group);
}

// Every other GPU NVML sees: the NVLinks that connect it to this one, direct links or, where NVML
// reports an NVLink path through switches, all of this GPU's active links (what nvidia-smi topo
// prints as NV#).
void Nvml::describe_peers(Device device, results::GpuInfo& gpu) const {
  int active_links = 0;
  for (const auto& g : gpu.nvlinks) active_links += g.link_count;
  const std::string self = results::normalize_pci_bus_id(gpu.pci_bus_id);
  for (const Device other : all_devices()) {
    const auto other_bus = bus_id(other).value;
    if (!other_bus) continue;
    const std::string bus = results::normalize_pci_bus_id(*other_bus);
    if (bus == self) continue;
    int direct = 0;
    for (const auto& g : gpu.nvlinks)
      if (g.remote_pci_bus_id == bus) direct = g.link_count;
    const bool path = nvlink_path(device, other).value.value_or(false);
    auto peer = std::find_if(gpu.peers.begin(), gpu.peers.end(),
                             [&](const results::PeerAccess& p) { return p.peer_pci_bus_id == bus; });
    if (peer == gpu.peers.end()) {
      gpu.peers.push_back(results::PeerAccess{bus});
      peer = gpu.peers.end() - 1;
    }
    peer->nvlink_count = direct > 0 ? direct : (path ? active_links : 0);
  }
}

// Settings an administrator can change (nvidia-smi -e, -mig, -pl, -ac, -pm). NOT_SUPPORTED, like any
// other failure, leaves the setting unknown: no check judges it.
void Nvml::describe_configuration(Device device, results::GpuInfo& gpu) const {
  gpu.ecc_enabled = ecc_enabled(device).value;
  gpu.mig_enabled = mig_enabled(device).value;
  gpu.persistence_enabled = persistence_enabled(device).value;
  gpu.power_management_limit_w = watts(power_management_limit_mw(device));
  gpu.power_default_limit_w = watts(power_default_limit_mw(device));
  gpu.applications_clock_sm_mhz = applications_clock_mhz(device, Clock::sm).value;
  gpu.default_applications_clock_sm_mhz = default_applications_clock_mhz(device, Clock::sm).value;
}

bool Nvml::describe(results::GpuInfo& gpu) const {
  const Device d = device(gpu.pci_bus_id);
  if (!d) return false;
  gpu.nvml_index = index(d).value;
  gpu.sm_clock_mhz = clock_mhz(d, Clock::sm).value;
  gpu.sm_clock_max_mhz = max_clock_mhz(d, Clock::sm).value;
  gpu.memory_clock_mhz = clock_mhz(d, Clock::memory).value;
  gpu.clock_event_reasons = clock_event_reasons(d).value;
  gpu.temperature_c = temperature_c(d).value;
  gpu.power_draw_w = watts(power_usage_mw(d));
  gpu.power_limit_w = watts(power_limit_mw(d));
  describe_configuration(d, gpu);
  gpu.ecc_corrected_volatile = ecc_corrected(d).value;
  gpu.ecc_uncorrected_volatile = ecc_uncorrected(d).value;
  if (const auto rows = remapped_rows(d).value) {
    gpu.remapped_rows_pending = rows->pending;
    gpu.remapped_rows_failure = rows->failure;
  }
  gpu.pcie_gen = pcie_gen(d).value;
  gpu.pcie_width = pcie_width(d).value;
  gpu.pcie_gen_max = pcie_gen_max(d).value;
  gpu.pcie_width_max = pcie_width_max(d).value;
  describe_nvlinks(d, gpu);
  describe_peers(d, gpu);
  return true;
}

}  // namespace gpuscale::harness
