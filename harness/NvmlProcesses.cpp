// Nvml's process listing and load sampling: the tenancy probe's view of who else uses a GPU.
#include <algorithm>

#include "harness/Nvml.hpp"

namespace gpuscale::harness {

std::optional<std::vector<Nvml::Process>> Nvml::processes(const std::string& pci_bus_id) const {
  const Device d = device(pci_bus_id);
  if (!d) return std::nullopt;
  const auto compute = running_processes(d, true).value;
  const auto graphics = running_processes(d, false).value;
  if (!compute && !graphics) return std::nullopt;
  std::vector<Process> out;
  const auto add = [&](const Process& listed) {
    auto it = std::find_if(out.begin(), out.end(), [&](const Process& p) { return p.pid == listed.pid; });
    if (it == out.end()) {
      out.push_back(Process{listed.pid, std::nullopt, listed.compute});
      it = out.end() - 1;
    }
    it->compute = it->compute || listed.compute;
    if (!it->used_memory_bytes) it->used_memory_bytes = listed.used_memory_bytes;
  };
  for (const auto& p : compute.value_or(std::vector<Process>{})) add(p);
  for (const auto& p : graphics.value_or(std::vector<Process>{})) add(p);
  return out;
}

Nvml::Load Nvml::load_now(const std::string& pci_bus_id) const {
  Load load;
  const Device d = device(pci_bus_id);
  if (!d) return load;
  load.utilization_pct = utilization_pct(d).value;
  load.memory_used_bytes = memory_used_bytes(d).value;
  return load;
}

}  // namespace gpuscale::harness
