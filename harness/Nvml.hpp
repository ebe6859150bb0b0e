#pragma once
// NVML, loaded at run time (libnvidia-ml.so.1). Owner of the library handle and of nvmlInit; query
// failures are not errors: the figure simply stays unknown (std::nullopt).
#include <memory>
#include <string>

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
  // Fills clocks, clock event reasons, temperature, power, ECC, row remapping, PCIe and NVLinks of
  // the GPU whose pci_bus_id is set. Returns false when NVML does not know that GPU.
  bool describe(results::GpuInfo& gpu) const;
  // The library's function `name` (nullptr when this driver lacks it), for readers that bind their own
  // slice of NVML (LoadSampler). Valid while this object lives.
  void* symbol(const char* name) const;

 private:
  struct Api;
  using Device = nvml_abi::DeviceOpaque*;
  explicit Nvml(void* library);
  void describe_nvlinks(Device device, results::GpuInfo& gpu) const;
  void describe_peers(Device device, results::GpuInfo& gpu) const;
  void* library_;
  std::unique_ptr<Api> api_;
};

}  // namespace gpuscale::harness
