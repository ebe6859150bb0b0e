// Nvml's process listing and load sampling: the tenancy probe's view of who else uses a GPU.
#include <algorithm>

#include <dlfcn.h>

#include "harness/Nvml.hpp"
#include "harness/detail/NvmlAbi.hpp"

namespace gpuscale::harness {

using namespace nvml_abi;

namespace {

template <class Fn>
Fn library_symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(::dlsym(library, name));
}

// Calls a listing function until its buffer is big enough (processes may start in between).
template <class Info, class Fn>
std::optional<std::vector<Info>> list(Fn fn, Device device) {
  std::vector<Info> infos(16);
  for (int attempt = 0; attempt < 4; ++attempt) {
    unsigned count = static_cast<unsigned>(infos.size());
    const Return rc = fn(device, &count, infos.data());
    if (rc == kSuccess) {
      infos.resize(count);
      return infos;
    }
    if (rc != kErrorInsufficientSize) return std::nullopt;
    infos.resize(static_cast<std::size_t>(count) + 8);
  }
  return std::nullopt;
}

using ListFn = Return (*)(Device, unsigned*, ProcessInfo*);
using ListV1Fn = Return (*)(Device, unsigned*, ProcessInfoV1*);

// One NVML list ("Compute" or "Graphics"), with the newest entry point the driver exports.
std::optional<std::vector<ProcessInfoV1>> list_kind(void* library, Device device, const std::string& kind) {
  const std::string base = "nvmlDeviceGet" + kind + "RunningProcesses";
  for (const char* suffix : {"_v3", "_v2"}) {
    if (auto fn = library_symbol<ListFn>(library, (base + suffix).c_str())) {
      const auto infos = list<ProcessInfo>(fn, device);
      if (!infos) return std::nullopt;
      std::vector<ProcessInfoV1> out;
      for (const auto& i : *infos) out.push_back({i.pid, i.used_gpu_memory});
      return out;
    }
  }
  if (auto fn = library_symbol<ListV1Fn>(library, base.c_str())) return list<ProcessInfoV1>(fn, device);
  return std::nullopt;
}

}  // namespace

Nvml::Device Nvml::handle(const std::string& pci_bus_id) const {
  using HandleFn = Return (*)(const char*, Device*);
  Device device = nullptr;
  const auto fn = library_symbol<HandleFn>(library_, "nvmlDeviceGetHandleByPciBusId_v2");
  if (!fn || fn(pci_bus_id.c_str(), &device) != kSuccess) return nullptr;
  return device;
}

std::optional<std::vector<Nvml::Process>> Nvml::processes(const std::string& pci_bus_id) const {
  const Device device = handle(pci_bus_id);
  if (!device) return std::nullopt;
  const auto compute = list_kind(library_, device, "Compute");
  const auto graphics = list_kind(library_, device, "Graphics");
  if (!compute && !graphics) return std::nullopt;
  std::vector<Process> out;
  const auto add = [&](const ProcessInfoV1& info, bool is_compute) {
    auto it = std::find_if(out.begin(), out.end(), [&](const Process& p) { return p.pid == info.pid; });
    if (it == out.end()) {
      out.push_back(Process{info.pid, std::nullopt, is_compute});
      it = out.end() - 1;
    }
    it->compute = it->compute || is_compute;
    if (info.used_gpu_memory != kValueNotAvailable && !it->used_memory_bytes) it->used_memory_bytes = info.used_gpu_memory;
  };
  for (const auto& info : compute.value_or(std::vector<ProcessInfoV1>{})) add(info, true);
  for (const auto& info : graphics.value_or(std::vector<ProcessInfoV1>{})) add(info, false);
  return out;
}

Nvml::Load Nvml::load_now(const std::string& pci_bus_id) const {
  Load load;
  const Device device = handle(pci_bus_id);
  if (!device) return load;
  using UtilizationFn = Return (*)(Device, Utilization*);
  using MemoryFn = Return (*)(Device, Memory*);
  Utilization utilization{};
  if (const auto fn = library_symbol<UtilizationFn>(library_, "nvmlDeviceGetUtilizationRates"); fn && fn(device, &utilization) == kSuccess)
    load.utilization_pct = utilization.gpu;
  Memory memory{};
  if (const auto fn = library_symbol<MemoryFn>(library_, "nvmlDeviceGetMemoryInfo"); fn && fn(device, &memory) == kSuccess)
    load.memory_used_bytes = memory.used;
  return load;
}

}  // namespace gpuscale::harness
