#pragma once
// Node-health facts that a rank's env record carries: who else uses its GPU (tenancy), which NCCL
// library and plugins it would load, and the node's RDMA adapters. Plain data filled by probes/,
// judged by phases/env/HealthChecks, printed by the reporters.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

// A process NVML lists on the rank's GPU (any process: telling the job's own from others is the
// check's business, with every rank's PID at hand).
struct GpuProcess {
  int pid = 0;
  std::string name;                            // /proc/PID/comm; empty where a PID namespace hides it
  bool compute = false;                        // listed as a compute process (else graphics only)
  std::optional<std::uint64_t> used_memory_bytes;  // nullopt: NVML does not say (MIG, some drivers)
};

struct Tenancy {
  bool probed = false;
  std::string unavailable_reason;  // why nothing was listed (no NVML, CPU backend, ...)
  std::vector<GpuProcess> processes;
  // Sampled a few times over about half a second before any rank starts GPU work.
  std::vector<unsigned> utilization_pct;             // NVML gpu utilization, one per sample
  std::vector<std::uint64_t> memory_used_bytes;      // NVML memory in use, one per sample
};

// A library file NCCL loads (libnccl itself or a plugin), or would load.
struct LibraryFile {
  std::string kind;       // "libnccl", "net", "tuner", "profiler"
  std::string requested;  // the name NCCL asks dlopen for ("libnccl-net.so", "libnccl-net-aws.so", a path)
  bool found = false;
  std::string path;       // where the dynamic loader would find it (empty when not found)
  std::uint64_t size_bytes = 0;
  std::uint64_t fnv1a64 = 0;  // FNV-1a 64 of the file's bytes
  std::string version;    // libnccl: NCCL's own version; plugins: empty
};

// One port of an RDMA adapter, as sysfs reports it.
struct AdapterPort {
  int port = 0;
  std::string state;       // "ACTIVE", "DOWN", "INIT", ... (sysfs "4: ACTIVE" without the number)
  std::string phys_state;  // "LinkUp", "Polling", "Disabled", ...
  double rate_gbps = 0;    // "400 Gb/sec (4X NDR)" -> 400; 0: unknown
  std::string rate_text;   // as sysfs wrote it
  std::string rate_unknown{};  // an active port's: why rate_gbps is unknown (no rate, or none a port runs at)
  std::string link_layer;  // "InfiniBand" or "Ethernet" (RoCE)
};

struct RdmaAdapter {
  std::string name;  // "mlx5_0"
  int numa_node = -1;
  std::vector<AdapterPort> ports;
};

struct NetworkAdapters {
  bool probed = false;
  std::vector<RdmaAdapter> adapters;  // sorted by name
  std::vector<std::string> interfaces;  // /sys/class/net names, sorted
  bool peermem_loaded = false;        // /sys/module/nvidia_peermem exists
  bool dmabuf_possible = false;       // the kernel exposes dma-buf (/sys/kernel/dmabuf or /dev/dma_heap)
};

// 64-bit hashes as 16 hex digits: JSON readers that hold numbers as doubles would round them.
struct Hex64 {
  static void write(nlohmann::json& out, std::uint64_t value);
  static void read(const nlohmann::json& in, std::uint64_t& value);
};

constexpr auto json_fields(const GpuProcess*) {
  using T = GpuProcess;
  return fields(field("pid", &T::pid), field("name", &T::name), field("compute", &T::compute),
                field("used_memory_bytes", &T::used_memory_bytes));
}

constexpr auto json_fields(const Tenancy*) {
  using T = Tenancy;
  return fields(field("probed", &T::probed), field("unavailable_reason", &T::unavailable_reason).optional(),
                field("processes", &T::processes).optional(),
                field("utilization_pct", &T::utilization_pct).optional(),
                field("memory_used_bytes", &T::memory_used_bytes).optional());
}

constexpr auto json_fields(const LibraryFile*) {
  using T = LibraryFile;
  return fields(field("kind", &T::kind), field("requested", &T::requested), field("found", &T::found),
                field("path", &T::path), field("size_bytes", &T::size_bytes),
                field("fnv1a64", &T::fnv1a64).as<Hex64>(), field("version", &T::version).optional());
}

constexpr auto json_fields(const AdapterPort*) {
  using T = AdapterPort;
  return fields(field("port", &T::port), field("state", &T::state), field("phys_state", &T::phys_state),
                field("rate_gbps", &T::rate_gbps), field("rate_text", &T::rate_text).optional(),
                field("rate_unknown", &T::rate_unknown).omitted_when_default(), field("link_layer", &T::link_layer));
}

constexpr auto json_fields(const RdmaAdapter*) {
  using T = RdmaAdapter;
  return fields(field("name", &T::name), field("numa_node", &T::numa_node).optional(), field("ports", &T::ports));
}

constexpr auto json_fields(const NetworkAdapters*) {
  using T = NetworkAdapters;
  return fields(field("probed", &T::probed), field("adapters", &T::adapters).optional(),
                field("interfaces", &T::interfaces).optional(),
                field("peermem_loaded", &T::peermem_loaded).optional(),
                field("dmabuf_possible", &T::dmabuf_possible).optional());
}

void to_json(nlohmann::json& j, const GpuProcess& v);
void from_json(const nlohmann::json& j, GpuProcess& v);
void to_json(nlohmann::json& j, const Tenancy& v);
void from_json(const nlohmann::json& j, Tenancy& v);
void to_json(nlohmann::json& j, const LibraryFile& v);
void from_json(const nlohmann::json& j, LibraryFile& v);
void to_json(nlohmann::json& j, const AdapterPort& v);
void from_json(const nlohmann::json& j, AdapterPort& v);
void to_json(nlohmann::json& j, const RdmaAdapter& v);
void from_json(const nlohmann::json& j, RdmaAdapter& v);
void to_json(nlohmann::json& j, const NetworkAdapters& v);
void from_json(const nlohmann::json& j, NetworkAdapters& v);

}  // namespace gpuscale::results
