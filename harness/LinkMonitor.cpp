#include "harness/LinkMonitor.hpp"

#include <algorithm>

namespace gpuscale::harness {

namespace {

// What NVML said, or what a driver without the function lacks.
std::string why(Nvml::Code code, const char* lacking) {
  return code == nvml_abi::kErrorFunctionNotFound ? lacking : nvml_error_text(code);
}

}  // namespace

LinkMonitor::LinkMonitor(const std::string& pci_bus_id) {
  if (pci_bus_id.empty()) return;  // the cpu backend: no links to read, nothing to say
  std::string reason;
  nvml_ = Nvml::load(reason);
  if (!nvml_) {
    note("PCIe, NVLink and XID state: " + reason);
    return;
  }
  device_ = nvml_->device(pci_bus_id);
  if (!device_) {
    note("PCIe, NVLink and XID state: NVML does not know the GPU at " + pci_bus_id);
    nvml_.reset();
    return;
  }
  before_ = read_links();
  const auto set = nvml_->watch_xids(device_);
  if (!set.value) {
    note("XID events: " + why(set.code, "this driver's NVML lacks the event API"));
    return;
  }
  event_set_ = *set.value;
}

LinkMonitor::~LinkMonitor() {
  if (thread_.joinable()) stop_pcie();
  if (event_set_) nvml_->free_events(event_set_);
}

void LinkMonitor::note(const std::string& line) const {
  if (std::find(unreadable_.begin(), unreadable_.end(), line) == unreadable_.end()) unreadable_.push_back(line);
}

std::vector<std::string> LinkMonitor::unreadable() const { return unreadable_; }

std::vector<LinkMonitor::LinkReading> LinkMonitor::read_links() const {
  std::vector<LinkReading> links;
  bool counters_read = false;
  Nvml::Code counters_rc = nvml_abi::kSuccess;
  for (unsigned link = 0; link < Nvml::kMaxNvLinks; ++link) {
    const auto active = nvml_->nvlink_active(device_, link).value;
    if (!active) continue;  // no such link on this GPU
    LinkReading r{link, *active, {}};
    const auto counter = [&](Nvml::NvLinkError which) -> std::optional<std::uint64_t> {
      const auto count = nvml_->nvlink_errors(device_, link, which);
      if (!count.value) {
        counters_rc = count.code;
        return std::nullopt;
      }
      counters_read = true;
      return *count.value;
    };
    if (r.active) {
      r.counters = {counter(Nvml::NvLinkError::replay), counter(Nvml::NvLinkError::recovery),
                    counter(Nvml::NvLinkError::crc_flit), counter(Nvml::NvLinkError::crc_data)};
    }
    links.push_back(r);
  }
  if (!counters_read && counters_rc != nvml_abi::kSuccess)
    note("NVLink error counters: " + why(counters_rc, "this driver's NVML lacks them"));
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
  for (;;) {
    const auto xid = nvml_->next_xid(event_set_, device_);
    if (!xid.value) {
      if (xid.code != nvml_abi::kErrorTimeout) note("XID events: " + nvml_error_text(xid.code));
      break;
    }
    out.push_back(*xid.value);
  }
  return out;
}

void LinkMonitor::start_pcie(double period_s) {
  if (!nvml_ || thread_.joinable()) return;
  pcie_.gen_max = nvml_->pcie_gen_max(device_).value;
  pcie_.width_max = nvml_->pcie_width_max(device_).value;
  const auto lacking = nvml_abi::kErrorFunctionNotFound;
  if (nvml_->pcie_gen(device_).code == lacking || nvml_->pcie_width(device_).code == lacking) {
    note("PCIe link under load: this driver's NVML lacks the queries");
    return;
  }
  pcie_sampled_ = true;
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
  const auto gen = nvml_->pcie_gen(device_).value;
  const auto width = nvml_->pcie_width(device_).value;
  if (!gen || !width) return;
  // Gen and width move together when a link retrains: keep the best reading as one pair.
  if (!pcie_.gen || *gen > *pcie_.gen || (*gen == *pcie_.gen && *width > pcie_.width.value_or(0))) {
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
  if (pcie_sampled_ && pcie_.samples == 0) note("PCIe link under load: NVML gave no reading");
  return pcie_;
}

}  // namespace gpuscale::harness
