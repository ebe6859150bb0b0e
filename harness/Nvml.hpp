#pragma once
// NVML, loaded at run time (libnvidia-ml.so.1). Owner of the library handle and of nvmlInit; query
// failures are not errors: the figure simply stays unknown (std::nullopt).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuscale::results {
struct GpuInfo;
}

namespace gpuscale::harness {

namespace nvml_abi {
struct DeviceOpaque;
}

class Nvml {
 public:
  // nullptr, with `why` filled, when the library or the driver is missing.
  static std::unique_ptr<Nvml> load(std::string& why);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  std::string driver_version() const;
  // Fills clocks, clock event reasons, temperature, power, ECC, row remapping, configuration (ECC and
  // MIG modes, power limits, application clocks, persistence), PCIe and NVLinks of
  // the GPU whose pci_bus_id is set. Returns false when NVML does not know that GPU.
  bool describe(results::GpuInfo& gpu) const;
  // The library's function `name` (nullptr when this driver lacks it), for readers that bind their own
  // slice of NVML (LoadSampler, LinkMonitor). Valid while this object lives.
  void* symbol(const char* name) const;
  // Sets the function pointer fn to symbol(name).
  template <class Fn>
  void bind(Fn& fn, const char* name) const {
    fn = reinterpret_cast<Fn>(symbol(name));
  }

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

 private:
  struct Api;
  using Device = nvml_abi::DeviceOpaque*;
  explicit Nvml(void* library);
  void describe_configuration(Device device, results::GpuInfo& gpu) const;
  void describe_nvlinks(Device device, results::GpuInfo& gpu) const;
  void describe_peers(Device device, results::GpuInfo& gpu) const;
  Device handle(const std::string& pci_bus_id) const;  // nullptr where NVML does not know the GPU
  void* library_;
  std::unique_ptr<Api> api_;
};

}  // namespace gpuscale::harness
