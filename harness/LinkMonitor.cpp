#include "harness/LinkMonitor.hpp"

#include <algorithm>

#include "harness/Nvml.hpp"
#include "harness/detail/NvmlAbi.hpp"

namespace gpuscale::harness {

using namespace nvml_abi;

struct LinkMonitor::Api {
  Return (*handle_by_pci_bus_id)(const char*, Device*) = nullptr;
  Return (*pcie_gen)(Device, unsigned*) = nullptr;
  Return (*pcie_width)(Device, unsigned*) = nullptr;
  Return (*pcie_gen_max)(Device, unsigned*) = nullptr;
  Return (*pcie_width_max)(Device, unsigned*) = nullptr;
  Return (*nvlink_state)(Device, unsigned, int*) = nullptr;
  Return (*nvlink_errors)(Device, unsigned, int, unsigned long long*) = nullptr;
  Return (*event_set_create)(EventSet*) = nullptr;
  Return (*event_set_free)(EventSet) = nullptr;
  Return (*register_events)(Device, unsigned long long, EventSet) = nullptr;
  Return (*event_set_wait)(EventSet, EventData*, unsigned) = nullptr;
};

namespace {

std::string why(Return rc) {
  if (rc == kErrorNotSupported) return "not supported";
  if (rc == kErrorNoPermission) return "no permission";
  return "NVML error " + std::to_string(rc);
}

}  // namespace

LinkMonitor::LinkMonitor(const std::string& pci_bus_id) : api_(std::make_unique<Api>()) {
  if (pci_bus_id.empty()) return;  // the cpu backend: no links to read, nothing to say
  std::string reason;
  nvml_ = Nvml::load(reason);
  if (!nvml_) {
    note("PCIe, NVLink and XID state: " + reason);
    return;
  }
  auto& a = *api_;
  nvml_->bind(a.handle_by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  nvml_->bind(a.pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
  nvml_->bind(a.pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
  nvml_->bind(a.pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration");
  nvml_->bind(a.pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth");
  nvml_->bind(a.nvlink_state, "nvmlDeviceGetNvLinkState");
  nvml_->bind(a.nvlink_errors, "nvmlDeviceGetNvLinkErrorCounter");
  nvml_->bind(a.event_set_create, "nvmlEventSetCreate");
  nvml_->bind(a.event_set_free, "nvmlEventSetFree");
  nvml_->bind(a.register_events, "nvmlDeviceRegisterEvents");
  nvml_->bind(a.event_set_wait, "nvmlEventSetWait_v2");
  Device device = nullptr;
  if (!a.handle_by_pci_bus_id || a.handle_by_pci_bus_id(pci_bus_id.c_str(), &device) != kSuccess) {
    note("PCIe, NVLink and XID state: NVML does not know the GPU at " + pci_bus_id);
    nvml_.reset();
    return;
  }
  device_ = device;
  before_ = read_links();
  if (!a.event_set_create || !a.register_events || !a.event_set_wait || !a.event_set_free) {
    note("XID events: this driver's NVML lacks the event API");
    return;
  }
  EventSet set = nullptr;
  if (const Return rc = a.event_set_create(&set); rc != kSuccess) {
    note("XID events: " + why(rc));
    return;
  }
  if (const Return rc = a.register_events(device, kEventTypeXidCriticalError, set); rc != kSuccess) {
    note("XID events: " + why(rc));
    a.event_set_free(set);
    return;
  }
  event_set_ = set;
}

LinkMonitor::~LinkMonitor() {
  if (thread_.joinable()) stop_pcie();
  if (event_set_) api_->event_set_free(static_cast<EventSet>(event_set_));
}

void LinkMonitor::note(const std::string& line) const {
  if (std::find(unreadable_.begin(), unreadable_.end(), line) == unreadable_.end()) unreadable_.push_back(line);
}

std::vector<std::string> LinkMonitor::unreadable() const { return unreadable_; }

std::vector<LinkMonitor::LinkReading> LinkMonitor::read_links() const {
  std::vector<LinkReading> links;
  const auto& a = *api_;
  const auto device = static_cast<Device>(device_);
  if (!a.nvlink_state) return links;
  bool counters_read = false;
  Return counters_rc = kSuccess;
  for (unsigned link = 0; link < kMaxNvLinks; ++link) {
    int state = 0;
    if (a.nvlink_state(device, link, &state) != kSuccess) continue;  // no such link on this GPU
    LinkReading r{link, state == kFeatureEnabled, {}};
    const auto counter = [&](int which) -> std::optional<std::uint64_t> {
      unsigned long long value = 0;
      if (!a.nvlink_errors) return std::nullopt;
      const Return rc = a.nvlink_errors(device, link, which, &value);
      if (rc != kSuccess) {
        counters_rc = rc;
        return std::nullopt;
      }
      counters_read = true;
      return value;
    };
    if (r.active) {
      r.counters = {counter(kNvLinkErrorDlReplay), counter(kNvLinkErrorDlRecovery), counter(kNvLinkErrorDlCrcFlit),
                    counter(kNvLinkErrorDlCrcData)};
    }
    links.push_back(r);
  }
  if (!counters_read && counters_rc != kSuccess) note("NVLink error counters: " + why(counters_rc));
  if (!links.empty() && !a.nvlink_errors) note("NVLink error counters: this driver's NVML lacks them");
  return links;
}

std::vector<results::NvLinkStatus> LinkMonitor::nvlinks() const {
  std::vector<results::NvLinkStatus> out;
  if (!nvml_) return out;
  const auto after = read_links();
  const auto delta = [](const std::optional<std::uint64_t>& b, const std::optional<std::uint64_t>& a) {
    return a && b && *a >= *b ? std::optional<std::uint64_t>(*a - *b) : std::nullopt;
  };
  for (const auto& b : before_) {
    const auto it = std::find_if(after.begin(), after.end(), [&](const LinkReading& x) { return x.link == b.link; });
    results::NvLinkStatus s{b.link, b.active, it != after.end() && it->active, {}};
    if (it != after.end())
      s.errors = {delta(b.counters.replay, it->counters.replay), delta(b.counters.recovery, it->counters.recovery),
                  delta(b.counters.crc_flit, it->counters.crc_flit), delta(b.counters.crc_data, it->counters.crc_data)};
    out.push_back(s);
  }
  return out;
}

std::vector<std::uint64_t> LinkMonitor::xids() {
  std::vector<std::uint64_t> out;
  if (!event_set_) return out;
  const auto device = static_cast<Device>(device_);
  for (;;) {
    EventData data{};
    const Return rc = api_->event_set_wait(static_cast<EventSet>(event_set_), &data, 0);
    if (rc == kErrorTimeout) break;
    if (rc != kSuccess) {
      note("XID events: " + why(rc));
      break;
    }
    if (data.device == device && (data.event_type & kEventTypeXidCriticalError)) out.push_back(data.event_data);
  }
  return out;
}

void LinkMonitor::start_pcie(double period_s) {
  if (!nvml_ || thread_.joinable()) return;
  const auto& a = *api_;
  const auto device = static_cast<Device>(device_);
  unsigned value = 0;
  if (a.pcie_gen_max && a.pcie_gen_max(device, &value) == kSuccess) pcie_.gen_max = value;
  if (a.pcie_width_max && a.pcie_width_max(device, &value) == kSuccess) pcie_.width_max = value;
  if (!a.pcie_gen || !a.pcie_width) {
    note("PCIe link under load: this driver's NVML lacks the queries");
    return;
  }
  stopping_ = false;
  thread_ = std::thread([this, period_s] {
    const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(period_s));
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      sample_pcie();
      lock.lock();
      wake_.wait_for(lock, period, [this] { return stopping_; });
    }
  });
}

void LinkMonitor::sample_pcie() {
  const auto& a = *api_;
  const auto device = static_cast<Device>(device_);
  unsigned gen = 0, width = 0;
  const Return gen_rc = a.pcie_gen(device, &gen);
  const Return width_rc = a.pcie_width(device, &width);
  if (gen_rc != kSuccess || width_rc != kSuccess) return;
  // Gen and width move together when a link retrains: keep the best reading as one pair.
  if (!pcie_.gen || gen > *pcie_.gen || (gen == *pcie_.gen && width > pcie_.width.value_or(0))) {
    pcie_.gen = gen;
    pcie_.width = width;
  }
  ++pcie_.samples;
}

results::PcieUnderLoad LinkMonitor::stop_pcie() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (nvml_ && pcie_.samples == 0 && api_->pcie_gen) note("PCIe link under load: NVML gave no reading");
  return pcie_;
}

}  // namespace gpuscale::harness
