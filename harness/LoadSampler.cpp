#include "harness/LoadSampler.hpp"

#include <algorithm>

namespace gpuscale::harness {

LoadSampler::LoadSampler(const std::string& pci_bus_id, double period_s)
    : period_s_(period_s), pci_bus_id_(pci_bus_id) {
  if (pci_bus_id.empty()) {
    unavailable_ = "no GPU on this backend";
    return;
  }
  nvml_ = Nvml::load(unavailable_);
  if (!nvml_) return;
  device_ = nvml_->device(pci_bus_id);
  if (!device_) {
    unavailable_ = "NVML does not know the GPU at " + pci_bus_id;
    nvml_.reset();
  }
}

LoadSampler::~LoadSampler() {
  if (thread_.joinable()) stop();
}

void LoadSampler::start(Clock::time_point t0) {
  if (!nvml_ || thread_.joinable()) return;
  thread_ = std::thread([this, t0] { run(t0); });
}

void LoadSampler::run(Clock::time_point t0) {
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(period_s_));
  auto next = Clock::now();
  std::unique_lock lock(mutex_);
  for (int n = 0; !stopping_; ++n) {
    lock.unlock();
    auto sample = read(t0);
    const auto listed = n % kProcessEvery == 0 ? nvml_->processes(pci_bus_id_) : std::nullopt;
    lock.lock();
    samples_.push_back(sample);
    for (const auto& p : listed.value_or(std::vector<Nvml::Process>{})) {
      const int pid = static_cast<int>(p.pid);
      if (std::none_of(processes_.begin(), processes_.end(), [&](const auto& q) { return q.pid == pid; }))
        processes_.push_back({pid, "", p.compute, p.used_memory_bytes});
    }
    next += period;
    wake_.wait_until(lock, next, [this] { return stopping_; });
  }
}

std::vector<results::BurnSample> LoadSampler::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  return std::move(samples_);
}

results::BurnSample LoadSampler::read(Clock::time_point t0) const {
  results::BurnSample s;
  s.t_s = std::chrono::duration<double>(Clock::now() - t0).count();
  s.sm_clock_mhz = nvml_->clock_mhz(device_, Nvml::Clock::sm).value;
  if (const auto mw = nvml_->power_usage_mw(device_).value) s.power_w = *mw / 1000.0;
  s.temperature_c = nvml_->temperature_c(device_).value;
  s.clock_event_reasons = nvml_->clock_event_reasons(device_).value;
  return s;
}

results::BurnCounters LoadSampler::counters() const {
  results::BurnCounters c;
  if (!nvml_) return c;
  c.ecc_corrected = nvml_->ecc_corrected(device_).value;
  c.ecc_uncorrected = nvml_->ecc_uncorrected(device_).value;
  c.power_cap_ns = nvml_->power_cap_ns(device_).value;
  c.thermal_ns = nvml_->thermal_ns(device_).value;
  return c;
}

results::BurnCounters counter_delta(const results::BurnCounters& before, const results::BurnCounters& after) {
  const auto delta = [](const std::optional<std::uint64_t>& b, const std::optional<std::uint64_t>& a) {
    return a && b && *a >= *b ? std::optional<std::uint64_t>(*a - *b) : std::nullopt;
  };
  return {delta(before.ecc_corrected, after.ecc_corrected), delta(before.ecc_uncorrected, after.ecc_uncorrected),
          delta(before.power_cap_ns, after.power_cap_ns), delta(before.thermal_ns, after.thermal_ns)};
}

}  // namespace gpuscale::harness
