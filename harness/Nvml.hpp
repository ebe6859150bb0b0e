#pragma once
// NVML, loaded at run time (libnvidia-ml.so.1): the one place that binds its functions. Owner of the
// library handle and of nvmlInit; every reader (the env probes, LinkMonitor, LoadSampler, the tenancy
// probe) asks through the typed methods below. Query failures are not errors: each answer carries
// NVML's code, and its value stays unknown (std::nullopt). A function this driver's library lacks
// answers kErrorFunctionNotFound. The methods may be called from any thread (NVML is thread-safe).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/detail/NvmlAbi.hpp"

namespace gpuscale::results {
struct GpuInfo;
}

namespace gpuscale::harness {

struct NvmlApi;  // Nvml.cpp: the bound functions

class Nvml {
 public:
  using Device = nvml_abi::Device;      // nullptr: no device
  using EventSet = nvml_abi::EventSet;  // freed by free_events
  using Code = nvml_abi::Return;

  // One question's answer: the value, or NVML's code for why there is none.
  template <class T>
  struct Answer {
    std::optional<T> value;
    Code code = nvml_abi::kSuccess;
  };

  // nullptr, with `why` filled, when the library or the driver is missing.
  static std::unique_ptr<Nvml> load(std::string& why);
  // The test seam: NVML's functions from `lookup` (name -> function, nullptr where absent) instead of
  // the library. nullptr, with `why` filled, where nvmlInit is missing or fails.
  using Lookup = std::function<void*(const char* name)>;
  static std::unique_ptr<Nvml> from_lookup(const Lookup& lookup, std::string& why);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  std::string driver_version() const;  // "" where NVML does not say
  // Fills clocks, clock event reasons, temperature, power, ECC, row remapping, configuration (ECC and
  // MIG modes, power limits, application clocks, persistence), PCIe and NVLinks of the GPU whose
  // pci_bus_id is set. Returns false when NVML does not know that GPU (NvmlDescribe.cpp).
  bool describe(results::GpuInfo& gpu) const;

  struct Process {
    unsigned pid = 0;
    std::optional<std::uint64_t> used_memory_bytes;  // nullopt where NVML does not say
    bool compute = false;                            // in the compute list (else graphics only)
  };
  // Every process with a context on the GPU at pci_bus_id, compute and graphics lists merged
  // (_v3 calls, falling back to _v2 and the unversioned ones); nullopt where NVML cannot list them.
  std::optional<std::vector<Process>> processes(const std::string& pci_bus_id) const;
  struct Load {
    std::optional<unsigned> utilization_pct;  // of the driver's last sample period
    std::optional<std::uint64_t> memory_used_bytes;
  };
  Load load_now(const std::string& pci_bus_id) const;  // the GPU at pci_bus_id, now

  // The device questions. A device comes from device(); nullptr where NVML does not know the GPU.
  Device device(const std::string& pci_bus_id) const;
  // NVML's index of the GPU: nvidia-smi's and dcgm-exporter's `gpu` (CUDA_VISIBLE_DEVICES does not change it).
  Answer<unsigned> index(Device d) const;
  enum class Clock { sm, memory };
  Answer<unsigned> clock_mhz(Device d, Clock c) const;
  Answer<unsigned> max_clock_mhz(Device d, Clock c) const;
  Answer<unsigned> applications_clock_mhz(Device d, Clock c) const;          // as set (nvidia-smi -ac)
  Answer<unsigned> default_applications_clock_mhz(Device d, Clock c) const;  // as the GPU boots
  Answer<unsigned long long> clock_event_reasons(Device d) const;            // nvmlClocksEventReason bits
  Answer<unsigned> temperature_c(Device d) const;
  Answer<unsigned> power_usage_mw(Device d) const;
  Answer<unsigned> power_limit_mw(Device d) const;             // enforced
  Answer<unsigned> power_management_limit_mw(Device d) const;  // as set (nvidia-smi -pl)
  Answer<unsigned> power_default_limit_mw(Device d) const;
  Answer<bool> ecc_enabled(Device d) const;  // current mode
  Answer<bool> mig_enabled(Device d) const;
  Answer<bool> persistence_enabled(Device d) const;
  // Volatile ECC error totals (since the driver loaded).
  Answer<unsigned long long> ecc_corrected(Device d) const;
  Answer<unsigned long long> ecc_uncorrected(Device d) const;
  struct RemappedRows {
    unsigned corrected = 0, uncorrected = 0, pending = 0, failure = 0;  // rows; pending and failure: 0 or 1
  };
  Answer<RemappedRows> remapped_rows(Device d) const;
  Answer<unsigned> pcie_gen(Device d) const;  // the link now (idle links train down)
  Answer<unsigned> pcie_width(Device d) const;
  Answer<unsigned> pcie_gen_max(Device d) const;
  Answer<unsigned> pcie_width_max(Device d) const;
  // Per NVLink, 0 <= link < kMaxNvLinks; a link this GPU does not have answers an error.
  static constexpr unsigned kMaxNvLinks = nvml_abi::kMaxNvLinks;
  Answer<bool> nvlink_active(Device d, unsigned link) const;
  Answer<unsigned> nvlink_version(Device d, unsigned link) const;
  Answer<std::string> nvlink_remote_bus_id(Device d, unsigned link) const;  // as NVML writes it
  enum class NvLinkError { replay, recovery, crc_flit, crc_data };
  Answer<unsigned long long> nvlink_errors(Device d, unsigned link, NvLinkError which) const;
  // Every GPU NVML sees (CUDA_VISIBLE_DEVICES does not hide them from NVML), in NVML's order.
  std::vector<Device> all_devices() const;
  Answer<std::string> bus_id(Device d) const;  // as NVML writes it
  // Whether NVML reports an NVLink path (direct or through switches) between a and b.
  Answer<bool> nvlink_path(Device a, Device b) const;
  Answer<unsigned> utilization_pct(Device d) const;
  Answer<unsigned long long> memory_used_bytes(Device d) const;
  // Cumulative time the power cap and the thermal limit have slowed the clocks.
  Answer<std::uint64_t> power_cap_ns(Device d) const;
  Answer<std::uint64_t> thermal_ns(Device d) const;
  // One of NVML's process lists (compute, else graphics), with the newest entry point this driver has.
  Answer<std::vector<Process>> running_processes(Device d, bool compute) const;

  // XID events: a set registered for d's critical XID errors (free it with free_events), or the code
  // why not. next_xid never waits: no value with kErrorTimeout when no event of d is pending.
  Answer<EventSet> watch_xids(Device d) const;
  Answer<std::uint64_t> next_xid(EventSet set, Device d) const;
  void free_events(EventSet set) const;

 private:
  Nvml(void* library, std::unique_ptr<NvmlApi> api);
  void describe_configuration(Device device, results::GpuInfo& gpu) const;
  void describe_nvlinks(Device device, results::GpuInfo& gpu) const;
  void describe_peers(Device device, results::GpuInfo& gpu) const;
  void* library_;  // dlopen's handle; nullptr behind a test lookup
  std::unique_ptr<NvmlApi> api_;
};

// "not supported", "no permission", "this driver's NVML lacks it", "NVML error N".
std::string nvml_error_text(Nvml::Code code);

}  // namespace gpuscale::harness
