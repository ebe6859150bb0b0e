#include "probes/TenancyProbe.hpp"

#include <chrono>
#include <fstream>
#include <thread>

#include "harness/FaultInjection.hpp"
#include "harness/Nvml.hpp"

namespace gpuscale::probes {

std::string process_name(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

namespace {

// What an injected process holds, so tests see a memory figure in the message like a real one's.
constexpr std::uint64_t kInjectedProcessMemoryBytes = 512ull << 20;

void probe_gpu(const std::string& pci_bus_id, int samples, bool settle, results::Tenancy& out) {
  std::string why;
  const auto nvml = harness::Nvml::load(why);
  if (!nvml) {
    out.unavailable_reason = "NVML unavailable: " + why;
    return;
  }
  const auto listed = nvml->processes(pci_bus_id);
  if (!listed) {
    out.unavailable_reason = "NVML cannot list the processes of GPU " + pci_bus_id;
    return;
  }
  out.probed = true;
  for (const auto& p : *listed)
    out.processes.push_back({static_cast<int>(p.pid), process_name(static_cast<int>(p.pid)), p.compute,
                             p.used_memory_bytes});
  for (int i = 0; i < samples; ++i) {
    if (i > 0 || settle) std::this_thread::sleep_for(std::chrono::duration<double>(kTenancySampleGapS));
    const auto load = nvml->load_now(pci_bus_id);
    if (load.utilization_pct) out.utilization_pct.push_back(*load.utilization_pct);
    if (load.memory_used_bytes) out.memory_used_bytes.push_back(*load.memory_used_bytes);
  }
}

results::Tenancy look(const std::string& pci_bus_id, const std::string& backend, int samples, bool settle) {
  results::Tenancy t;
  if (!pci_bus_id.empty()) {
    probe_gpu(pci_bus_id, samples, settle, t);
  } else {
    t.unavailable_reason = backend + " backend: no GPU, no NVML";
  }
  const auto injected = harness::injected_foreign_processes();
  if (injected.empty()) return t;
  t.probed = true;
  for (const auto& p : injected)
    t.processes.push_back({p.pid, process_name(p.pid), p.compute, kInjectedProcessMemoryBytes});
  return t;
}

}  // namespace

void probe_tenancy(results::RankEnv& env) {
  env.tenancy = look(env.gpu ? env.gpu->pci_bus_id : "", env.backend, kTenancySamples, false);
}

results::Tenancy look_at_gpu(const std::string& pci_bus_id, const std::string& backend, int samples) {
  return look(pci_bus_id, backend, samples, true);
}

}  // namespace gpuscale::probes
