#include "harness/LoadSampler.hpp"

#include <algorithm>

#include "harness/Nvml.hpp"
#include "harness/detail/NvmlAbi.hpp"

namespace gpuscale::harness {

using namespace nvml_abi;

struct LoadSampler::Api {
  Return (*handle_by_pci_bus_id)(const char*, Device*) = nullptr;
  Return (*clock)(Device, int, unsigned*) = nullptr;
  Return (*power_usage)(Device, unsigned*) = nullptr;
  Return (*temperature)(Device, int, unsigned*) = nullptr;
  Return (*clock_event_reasons)(Device, unsigned long long*) = nullptr;
  Return (*ecc_errors)(Device, int, int, unsigned long long*) = nullptr;
  Return (*field_values)(Device, int, FieldValue*) = nullptr;
};

LoadSampler::LoadSampler(const std::string& pci_bus_id, double period_s)
    : api_(std::make_unique<Api>()), period_s_(period_s), pci_bus_id_(pci_bus_id) {
  if (pci_bus_id.empty()) {
    unavailable_ = "no GPU on this backend";
    return;
  }
  nvml_ = Nvml::load(unavailable_);
  if (!nvml_) return;
  auto& a = *api_;
  nvml_->bind(a.handle_by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  nvml_->bind(a.clock, "nvmlDeviceGetClockInfo");
  nvml_->bind(a.power_usage, "nvmlDeviceGetPowerUsage");
  nvml_->bind(a.temperature, "nvmlDeviceGetTemperature");
  nvml_->bind(a.clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!a.clock_event_reasons) nvml_->bind(a.clock_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  nvml_->bind(a.ecc_errors, "nvmlDeviceGetTotalEccErrors");
  nvml_->bind(a.field_values, "nvmlDeviceGetFieldValues");
  Device device = nullptr;
  if (!a.handle_by_pci_bus_id || a.handle_by_pci_bus_id(pci_bus_id.c_str(), &device) != kSuccess) {
    unavailable_ = "NVML does not know the GPU at " + pci_bus_id;
    nvml_.reset();
    return;
  }
  device_ = device;
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
  const auto& a = *api_;
  const auto device = static_cast<Device>(device_);
  results::BurnSample s;
  s.t_s = std::chrono::duration<double>(Clock::now() - t0).count();
  unsigned value = 0;
  if (a.clock && a.clock(device, kClockSm, &value) == kSuccess) s.sm_clock_mhz = value;
  if (a.power_usage && a.power_usage(device, &value) == kSuccess) s.power_w = value / 1000.0;
  if (a.temperature && a.temperature(device, kTemperatureGpu, &value) == kSuccess) s.temperature_c = value;
  unsigned long long reasons = 0;
  if (a.clock_event_reasons && a.clock_event_reasons(device, &reasons) == kSuccess) s.clock_event_reasons = reasons;
  return s;
}

results::BurnCounters LoadSampler::counters() const {
  results::BurnCounters c;
  if (!nvml_) return c;
  const auto& a = *api_;
  const auto device = static_cast<Device>(device_);
  unsigned long long count = 0;
  if (a.ecc_errors && a.ecc_errors(device, kEccCorrected, kEccVolatile, &count) == kSuccess) c.ecc_corrected = count;
  if (a.ecc_errors && a.ecc_errors(device, kEccUncorrected, kEccVolatile, &count) == kSuccess) c.ecc_uncorrected = count;
  if (!a.field_values) return c;
  FieldValue fields[2] = {};
  fields[0].field_id = kFieldPerfPolicyPower;
  fields[1].field_id = kFieldPerfPolicyThermal;
  if (a.field_values(device, 2, fields) != kSuccess) return c;
  const auto ull = [](const FieldValue& f) -> std::optional<std::uint64_t> {
    if (f.result != kSuccess || f.value_type != kValueTypeUnsignedLongLong) return std::nullopt;
    return f.value.ull;
  };
  c.power_cap_ns = ull(fields[0]);
  c.thermal_ns = ull(fields[1]);
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
