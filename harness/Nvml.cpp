#include "harness/Nvml.hpp"

#include <algorithm>
#include <map>

#include <dlfcn.h>

#include "harness/detail/NvmlAbi.hpp"
#include "results/render/Format.hpp"
#include "results/schema/RankEnv.hpp"

namespace gpuscale::harness {

using namespace nvml_abi;

struct Nvml::Api {
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  Return (*driver_version)(char*, unsigned) = nullptr;
  Return (*handle_by_pci_bus_id)(const char*, Device*) = nullptr;
  Return (*clock)(Device, int, unsigned*) = nullptr;
  Return (*max_clock)(Device, int, unsigned*) = nullptr;
  Return (*clock_event_reasons)(Device, unsigned long long*) = nullptr;
  Return (*temperature)(Device, int, unsigned*) = nullptr;
  Return (*power_usage)(Device, unsigned*) = nullptr;
  Return (*power_limit)(Device, unsigned*) = nullptr;
  Return (*power_management_limit)(Device, unsigned*) = nullptr;
  Return (*power_default_limit)(Device, unsigned*) = nullptr;
  Return (*ecc_mode)(Device, int*, int*) = nullptr;        // current, pending (nvmlEnableState_t)
  Return (*mig_mode)(Device, unsigned*, unsigned*) = nullptr;  // current, pending
  Return (*persistence_mode)(Device, int*) = nullptr;
  Return (*applications_clock)(Device, int, unsigned*) = nullptr;
  Return (*default_applications_clock)(Device, int, unsigned*) = nullptr;
  Return (*ecc_errors)(Device, int, int, unsigned long long*) = nullptr;
  Return (*remapped_rows)(Device, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  Return (*pcie_gen)(Device, unsigned*) = nullptr;
  Return (*pcie_width)(Device, unsigned*) = nullptr;
  Return (*pcie_gen_max)(Device, unsigned*) = nullptr;
  Return (*pcie_width_max)(Device, unsigned*) = nullptr;
  Return (*nvlink_state)(Device, unsigned, int*) = nullptr;
  Return (*nvlink_version)(Device, unsigned, unsigned*) = nullptr;
  Return (*nvlink_remote_pci)(Device, unsigned, PciInfo*) = nullptr;
  Return (*device_count)(unsigned*) = nullptr;
  Return (*handle_by_index)(unsigned, Device*) = nullptr;
  Return (*pci_info)(Device, PciInfo*) = nullptr;
  Return (*p2p_status)(Device, Device, int, int*) = nullptr;
};

namespace {

template <class Fn>
void dl_bind(void* library, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(::dlsym(library, name));
}

template <class T, class Fn, class... Args>
std::optional<T> query(Fn fn, Device device, Args... args) {
  if (!fn) return std::nullopt;
  T value{};
  if (fn(device, args..., &value) != kSuccess) return std::nullopt;
  return value;
}

}  // namespace

std::unique_ptr<Nvml> Nvml::load(std::string& why) {
  void* library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = "libnvidia-ml.so.1 not found";
    return nullptr;
  }
  std::unique_ptr<Nvml> nvml(new Nvml(library));
  auto& a = *nvml->api_;
  dl_bind(library, a.init, "nvmlInit_v2");
  dl_bind(library, a.shutdown, "nvmlShutdown");
  if (!a.init || !a.shutdown || a.init() != kSuccess) {
    why = "nvmlInit failed";
    a.shutdown = nullptr;  // nothing to shut down
    return nullptr;
  }
  dl_bind(library, a.driver_version, "nvmlSystemGetDriverVersion");
  dl_bind(library, a.handle_by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  dl_bind(library, a.clock, "nvmlDeviceGetClockInfo");
  dl_bind(library, a.max_clock, "nvmlDeviceGetMaxClockInfo");
  dl_bind(library, a.clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!a.clock_event_reasons) dl_bind(library, a.clock_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  dl_bind(library, a.temperature, "nvmlDeviceGetTemperature");
  dl_bind(library, a.power_usage, "nvmlDeviceGetPowerUsage");
  dl_bind(library, a.power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  dl_bind(library, a.power_management_limit, "nvmlDeviceGetPowerManagementLimit");
  dl_bind(library, a.power_default_limit, "nvmlDeviceGetPowerManagementDefaultLimit");
  dl_bind(library, a.ecc_mode, "nvmlDeviceGetEccMode");
  dl_bind(library, a.mig_mode, "nvmlDeviceGetMigMode");
  dl_bind(library, a.persistence_mode, "nvmlDeviceGetPersistenceMode");
  dl_bind(library, a.applications_clock, "nvmlDeviceGetApplicationsClock");
  dl_bind(library, a.default_applications_clock, "nvmlDeviceGetDefaultApplicationsClock");
  dl_bind(library, a.ecc_errors, "nvmlDeviceGetTotalEccErrors");
  dl_bind(library, a.remapped_rows, "nvmlDeviceGetRemappedRows");
  dl_bind(library, a.pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
  dl_bind(library, a.pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
  dl_bind(library, a.pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration");
  dl_bind(library, a.pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth");
  dl_bind(library, a.nvlink_state, "nvmlDeviceGetNvLinkState");
  dl_bind(library, a.nvlink_version, "nvmlDeviceGetNvLinkVersion");
  dl_bind(library, a.nvlink_remote_pci, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
  dl_bind(library, a.device_count, "nvmlDeviceGetCount_v2");
  dl_bind(library, a.handle_by_index, "nvmlDeviceGetHandleByIndex_v2");
  dl_bind(library, a.pci_info, "nvmlDeviceGetPciInfo_v3");
  dl_bind(library, a.p2p_status, "nvmlDeviceGetP2PStatus");
  return nvml;
}

Nvml::Nvml(void* library) : library_(library), api_(std::make_unique<Api>()) {}

Nvml::~Nvml() {
  if (api_->shutdown) api_->shutdown();
  ::dlclose(library_);
}

void* Nvml::symbol(const char* name) const { return ::dlsym(library_, name); }

std::string Nvml::driver_version() const {
  char text[96] = {};
  if (!api_->driver_version || api_->driver_version(text, sizeof text) != kSuccess) return "";
  return text;
}

// Groups active NVLinks by the PCI device at their far end: NV18 to one GPU is one group of 18. On
// NVSwitch systems the far end is a switch (or, in a VM, hidden as ffff:ff:ff.0).
void Nvml::describe_nvlinks(Device device, results::GpuInfo& gpu) const {
  const auto& a = *api_;
  std::map<std::string, results::NvLinkGroup> groups;
  for (unsigned link = 0; a.nvlink_state && a.nvlink_remote_pci && link < kMaxNvLinks; ++link) {
    int active = 0;
    if (a.nvlink_state(device, link, &active) != kSuccess || active != kFeatureEnabled) continue;
    PciInfo remote{};
    if (a.nvlink_remote_pci(device, link, &remote) != kSuccess) continue;
    const std::string bus = results::normalize_pci_bus_id(remote.bus_id);
    auto& group = groups[bus];
    group.remote_pci_bus_id = bus;
    ++group.link_count;
    if (group.version == 0) {
      unsigned version = 0;
      if (a.nvlink_version && a.nvlink_version(device, link, &version) == kSuccess) group.version = static_cast<int>(version);
    }
  }
  gpu.nvlinks.clear();
  for (auto& [bus, group] : groups) gpu.nvlinks.push_back(group);
}

// Every other GPU NVML sees (CUDA_VISIBLE_DEVICES does not hide them from NVML): the NVLinks that
// connect it to this one, direct links or, where NVML reports an NVLink path through switches, all of
// this GPU's active links (what nvidia-smi topo prints as NV#).
void Nvml::describe_peers(Device device, results::GpuInfo& gpu) const {
  const auto& a = *api_;
  unsigned count = 0;
  if (!a.device_count || !a.handle_by_index || !a.pci_info || a.device_count(&count) != kSuccess) return;
  int active_links = 0;
  for (const auto& g : gpu.nvlinks) active_links += g.link_count;
  const std::string self = results::normalize_pci_bus_id(gpu.pci_bus_id);
  for (unsigned index = 0; index < count; ++index) {
    Device other = nullptr;
    PciInfo info{};
    if (a.handle_by_index(index, &other) != kSuccess || a.pci_info(other, &info) != kSuccess) continue;
    const std::string bus = results::normalize_pci_bus_id(info.bus_id);
    if (bus == self) continue;
    int direct = 0;
    for (const auto& g : gpu.nvlinks)
      if (g.remote_pci_bus_id == bus) direct = g.link_count;
    int status = -1;
    const bool nvlink_path = a.p2p_status && a.p2p_status(device, other, kP2PCapsNvlink, &status) == kSuccess &&
                             status == kP2PStatusOk;
    auto peer = std::find_if(gpu.peers.begin(), gpu.peers.end(),
                             [&](const results::PeerAccess& p) { return p.peer_pci_bus_id == bus; });
    if (peer == gpu.peers.end()) {
      gpu.peers.push_back(results::PeerAccess{bus});
      peer = gpu.peers.end() - 1;
    }
    peer->nvlink_count = direct > 0 ? direct : (nvlink_path ? active_links : 0);
  }
}

// Settings an administrator can change (nvidia-smi -e, -mig, -pl, -ac, -pm). NOT_SUPPORTED, like any
// other failure, leaves the setting unknown: no check judges it.
void Nvml::describe_configuration(Device device, results::GpuInfo& gpu) const {
  const auto& a = *api_;
  int current = 0, pending = 0;
  if (a.ecc_mode && a.ecc_mode(device, &current, &pending) == kSuccess) gpu.ecc_enabled = current == kFeatureEnabled;
  unsigned mig = 0, mig_pending = 0;
  if (a.mig_mode && a.mig_mode(device, &mig, &mig_pending) == kSuccess) gpu.mig_enabled = mig == kMigEnable;
  if (auto mode = query<int>(a.persistence_mode, device)) gpu.persistence_enabled = *mode == kFeatureEnabled;
  if (auto mw = query<unsigned>(a.power_management_limit, device)) gpu.power_management_limit_w = *mw / 1000.0;
  if (auto mw = query<unsigned>(a.power_default_limit, device)) gpu.power_default_limit_w = *mw / 1000.0;
  gpu.applications_clock_sm_mhz = query<unsigned>(a.applications_clock, device, kClockSm);
  gpu.default_applications_clock_sm_mhz = query<unsigned>(a.default_applications_clock, device, kClockSm);
}

bool Nvml::describe(results::GpuInfo& gpu) const {
  const auto& a = *api_;
  Device device = nullptr;
  if (!a.handle_by_pci_bus_id || a.handle_by_pci_bus_id(gpu.pci_bus_id.c_str(), &device) != kSuccess) return false;
  gpu.sm_clock_mhz = query<unsigned>(a.clock, device, kClockSm);
  gpu.sm_clock_max_mhz = query<unsigned>(a.max_clock, device, kClockSm);
  gpu.memory_clock_mhz = query<unsigned>(a.clock, device, kClockMem);
  gpu.clock_event_reasons = query<unsigned long long>(a.clock_event_reasons, device);
  gpu.temperature_c = query<unsigned>(a.temperature, device, kTemperatureGpu);
  if (auto mw = query<unsigned>(a.power_usage, device)) gpu.power_draw_w = *mw / 1000.0;
  if (auto mw = query<unsigned>(a.power_limit, device)) gpu.power_limit_w = *mw / 1000.0;
  describe_configuration(device, gpu);
  gpu.ecc_corrected_volatile = query<unsigned long long>(a.ecc_errors, device, kEccCorrected, kEccVolatile);
  gpu.ecc_uncorrected_volatile = query<unsigned long long>(a.ecc_errors, device, kEccUncorrected, kEccVolatile);
  unsigned corrected = 0, uncorrected = 0, pending = 0, failure = 0;
  if (a.remapped_rows && a.remapped_rows(device, &corrected, &uncorrected, &pending, &failure) == kSuccess) {
    gpu.remapped_rows_pending = pending;
    gpu.remapped_rows_failure = failure;
  }
  gpu.pcie_gen = query<unsigned>(a.pcie_gen, device);
  gpu.pcie_width = query<unsigned>(a.pcie_width, device);
  gpu.pcie_gen_max = query<unsigned>(a.pcie_gen_max, device);
  gpu.pcie_width_max = query<unsigned>(a.pcie_width_max, device);

  describe_nvlinks(device, gpu);
  describe_peers(device, gpu);
  return true;
}

}  // namespace gpuscale::harness
