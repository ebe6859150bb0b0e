#pragma once
// The environment of one rank, as probed on that rank and gathered to rank 0. Plain data: the
// probes (harness/) fill it, the checks read it, the reporters print it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"
#include "results/world/HealthRecords.hpp"
#include "results/world/SlurmInfo.hpp"

namespace gpuscale::results {

// The phase's planned kinds (PlannedItem::kind, results/base/PlanRecord.hpp).
namespace planned {
inline constexpr char kEnvChecks[] = "env_checks";  // the probes on every rank and the checks across them
inline constexpr char kSmokeAllreduce[] = "smoke_allreduce";  // the verified allreduce over every rank
}  // namespace planned

// NVLinks from this rank's GPU to one remote PCI device (another GPU or an NVSwitch).
struct NvLinkGroup {
  std::string remote_pci_bus_id;
  int link_count = 0;
  int version = 0;  // nvmlNvlinkVersion_t of the first link in the group (6 = NVLink 4.0)
};

// This rank's GPU and another GPU of the node: CUDA peer access where the peer is visible to this
// rank, and the NVLinks NVML says connect them (direct, or through NVSwitches: nvidia-smi's NV#).
struct PeerAccess {
  std::string peer_pci_bus_id;
  bool cuda_visible = false;  // the peer is visible to this rank, so can_access was measured
  bool can_access = false;
  int performance_rank = -1;  // cudaDevP2PAttrPerformanceRank; lower is better
  int nvlink_count = 0;       // 0: no NVLink path (PCIe), or NVML unavailable
};

struct GpuInfo {
  int cuda_index = -1;     // index among this rank's visible devices
  std::string name;
  std::string uuid;        // "GPU-xxxxxxxx-..."
  std::string pci_bus_id;  // "0000:19:00.0"
  int cc_major = 0, cc_minor = 0;
  std::uint64_t memory_total_bytes = 0;
  std::uint64_t memory_free_bytes = 0;
  int sm_count = 0;
  int numa_node = -1;  // from sysfs; -1 when the platform reports none
  // NVML's index of the GPU on its host (nvidia-smi's and dcgm-exporter's `gpu`); nullopt without NVML.
  std::optional<unsigned> nvml_index;
  // NVML figures: nullopt where NVML is absent or the GPU does not support the query.
  std::optional<unsigned> sm_clock_mhz, sm_clock_max_mhz, memory_clock_mhz;
  std::optional<std::uint64_t> clock_event_reasons;  // NVML bit mask
  std::optional<unsigned> temperature_c;
  std::optional<double> power_draw_w, power_limit_w;
  std::optional<std::uint64_t> ecc_corrected_volatile, ecc_uncorrected_volatile;
  std::optional<unsigned> remapped_rows_pending, remapped_rows_failure;
  // Configuration (phases/env/GpuConfigChecks.hpp judges it); nullopt where NVML says NOT_SUPPORTED.
  std::optional<bool> ecc_enabled, mig_enabled, persistence_enabled;
  std::optional<double> power_management_limit_w, power_default_limit_w;  // as set, and as the GPU boots
  std::optional<unsigned> applications_clock_sm_mhz, default_applications_clock_sm_mhz;
  std::optional<unsigned> pcie_gen, pcie_width, pcie_gen_max, pcie_width_max;
  std::vector<NvLinkGroup> nvlinks;
  std::vector<PeerAccess> peers;
};

struct Versions {
  std::string driver;              // "580.159.04" (NVML) or empty
  int cuda_driver_api = 0;         // cudaDriverGetVersion, e.g. 13000
  int cuda_runtime = 0;            // cudaRuntimeGetVersion
  int cublas = 0;                  // cublasLtGetVersion
  int cudnn_header = 0, cudnn_library = 0;
  int nccl_header = 0, nccl_library = 0;
  std::string mpi_library;         // first line of MPI_Get_library_version
  std::string mpi_standard;        // "3.1"
};

// How NCCL connected this rank in the smoke allreduce's communicator, from NCCL's own INFO log.
struct NcclPaths {
  bool captured = false;
  std::string unavailable_reason;       // why not captured (cpu backend, NCCL_DEBUG set by the user, ...)
  int nodes = 0;                        // NCCL's nNodes: the hosts NCCL believes the ranks are on
  int local_ranks = 0;                  // NCCL's localRanks of this rank's host
  std::string network;                  // "Using network X": "Socket", "IB", a plugin's name
  std::vector<std::string> transports;  // distinct, sorted: "P2P/CUMEM", "SHM/direct", "NET/Socket", ...
};

// A collective run once through this rank's communicator to prove the stack end to end.
struct SmokeAllreduce {
  bool ran = false;
  bool passed = false;
  std::string skipped_reason;
  std::string transport;           // "nccl" or "mpi"
  std::uint64_t elements = 0;
  std::uint64_t wrong = 0;
  double init_s = 0;               // communicator creation
  double op_s = 0;                 // the verified allreduce, host-timed after a warm-up
  std::string error;
  NcclPaths nccl;                  // the NCCL transport the allreduce went over (cuda backend)
};

struct RankEnv {
  int rank = 0, world_size = 1;
  int local_rank = 0, local_size = 1;
  int node = 0, node_count = 1;
  std::string host;
  std::string backend;             // "cuda" or "cpu"
  bool backend_fallback = false;   // cpu chosen by --device auto because the node has no NVIDIA GPU
  std::string cuda_unusable;       // why CUDA cannot use the node's GPUs (harness/BackendSelect.hpp); "" when it can
  std::string launcher;            // "mpirun", "srun", "singleton", ...
  int pid = 0;
  std::string cpu_model;
  int cpu_online = 0;
  std::string cpu_affinity;        // Linux cpulist, e.g. "0-15,32-47"
  int cpu_affinity_count = 0;
  std::map<int, std::string> numa_cpus;  // NUMA node -> cpulist, as sysfs reports
  int visible_gpu_count = 0;
  std::optional<GpuInfo> gpu;
  Versions versions;
  std::map<std::string, std::string> variables;  // allow-listed environment variables
  SmokeAllreduce smoke;
  std::optional<SlurmInfo> slurm;  // set when the rank runs inside a Slurm job
  Tenancy tenancy;                 // other processes on this rank's GPU, before any work
  std::vector<LibraryFile> nccl_libraries;  // libnccl and the plugins NCCL would load
  NetworkAdapters network;         // this rank's node's RDMA adapters (every rank of a node reads them)
};

constexpr auto json_fields(const NvLinkGroup*) {
  using T = NvLinkGroup;
  return fields(field("remote_pci_bus_id", &T::remote_pci_bus_id), field("link_count", &T::link_count),
                field("version", &T::version));
}

constexpr auto json_fields(const PeerAccess*) {
  using T = PeerAccess;
  return fields(field("peer_pci_bus_id", &T::peer_pci_bus_id), field("can_access", &T::can_access),
                field("performance_rank", &T::performance_rank), field("cuda_visible", &T::cuda_visible).optional(),
                field("nvlink_count", &T::nvlink_count).optional());
}

constexpr auto json_fields(const GpuInfo*) {
  using T = GpuInfo;
  return fields(
      field("cuda_index", &T::cuda_index), field("name", &T::name), field("uuid", &T::uuid),
      field("pci_bus_id", &T::pci_bus_id),
      computed("compute_capability",
               [](const T& g) { return std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor); }),
      field("cc_major", &T::cc_major), field("cc_minor", &T::cc_minor),
      field("memory_total_bytes", &T::memory_total_bytes), field("memory_free_bytes", &T::memory_free_bytes),
      field("sm_count", &T::sm_count), field("numa_node", &T::numa_node).optional(),
      field("nvml_index", &T::nvml_index),
      field("nvlinks", &T::nvlinks).optional(), field("peers", &T::peers).optional(),
      field("sm_clock_mhz", &T::sm_clock_mhz), field("sm_clock_max_mhz", &T::sm_clock_max_mhz),
      field("memory_clock_mhz", &T::memory_clock_mhz), field("clock_event_reasons", &T::clock_event_reasons),
      field("temperature_c", &T::temperature_c), field("power_draw_w", &T::power_draw_w),
      field("power_limit_w", &T::power_limit_w), field("ecc_corrected_volatile", &T::ecc_corrected_volatile),
      field("ecc_uncorrected_volatile", &T::ecc_uncorrected_volatile),
      field("remapped_rows_pending", &T::remapped_rows_pending),
      field("remapped_rows_failure", &T::remapped_rows_failure), field("ecc_enabled", &T::ecc_enabled),
      field("mig_enabled", &T::mig_enabled), field("persistence_enabled", &T::persistence_enabled),
      field("power_management_limit_w", &T::power_management_limit_w),
      field("power_default_limit_w", &T::power_default_limit_w),
      field("applications_clock_sm_mhz", &T::applications_clock_sm_mhz),
      field("default_applications_clock_sm_mhz", &T::default_applications_clock_sm_mhz),
      field("pcie_gen", &T::pcie_gen), field("pcie_width", &T::pcie_width),
      field("pcie_gen_max", &T::pcie_gen_max), field("pcie_width_max", &T::pcie_width_max));
}

constexpr auto json_fields(const Versions*) {
  using T = Versions;
  return fields(field("driver", &T::driver), field("cuda_driver_api", &T::cuda_driver_api),
                field("cuda_runtime", &T::cuda_runtime), field("cublas", &T::cublas),
                field("cudnn_header", &T::cudnn_header), field("cudnn_library", &T::cudnn_library),
                field("nccl_header", &T::nccl_header), field("nccl_library", &T::nccl_library),
                field("mpi_library", &T::mpi_library), field("mpi_standard", &T::mpi_standard));
}

constexpr auto json_fields(const NcclPaths*) {
  using T = NcclPaths;
  return fields(field("captured", &T::captured), field("unavailable_reason", &T::unavailable_reason).optional(),
                field("nodes", &T::nodes).optional(), field("local_ranks", &T::local_ranks).optional(),
                field("network", &T::network).optional(), field("transports", &T::transports).optional());
}

constexpr auto json_fields(const SmokeAllreduce*) {
  using T = SmokeAllreduce;
  return fields(field("ran", &T::ran), field("passed", &T::passed), field("skipped_reason", &T::skipped_reason),
                field("transport", &T::transport), field("elements", &T::elements), field("wrong", &T::wrong),
                field("init_s", &T::init_s), field("op_s", &T::op_s), field("error", &T::error),
                field("nccl_paths", &T::nccl).optional());
}

constexpr auto json_fields(const RankEnv*) {
  using T = RankEnv;
  return fields(field("rank", &T::rank), field("world_size", &T::world_size), field("local_rank", &T::local_rank),
                field("local_size", &T::local_size), field("node", &T::node), field("node_count", &T::node_count),
                field("host", &T::host), field("backend", &T::backend),
                field("backend_fallback", &T::backend_fallback).optional(),
                field("cuda_unusable", &T::cuda_unusable).optional(), field("launcher", &T::launcher).optional(),
                field("pid", &T::pid).optional(), field("cpu_model", &T::cpu_model).optional(),
                field("cpu_online", &T::cpu_online).optional(), field("cpu_affinity", &T::cpu_affinity).optional(),
                field("cpu_affinity_count", &T::cpu_affinity_count).optional(),
                field("numa_cpus", &T::numa_cpus).optional(),
                field("visible_gpu_count", &T::visible_gpu_count).optional(), field("versions", &T::versions),
                field("variables", &T::variables).optional(), field("smoke_allreduce", &T::smoke).optional(),
                field("gpu", &T::gpu), field("slurm", &T::slurm), field("tenancy", &T::tenancy).optional(),
                field("nccl_libraries", &T::nccl_libraries).optional(), field("network", &T::network).optional());
}

void to_json(nlohmann::json& j, const NvLinkGroup& v);
void from_json(const nlohmann::json& j, NvLinkGroup& v);
void to_json(nlohmann::json& j, const PeerAccess& v);
void from_json(const nlohmann::json& j, PeerAccess& v);
void to_json(nlohmann::json& j, const GpuInfo& v);
void from_json(const nlohmann::json& j, GpuInfo& v);
void to_json(nlohmann::json& j, const Versions& v);
void from_json(const nlohmann::json& j, Versions& v);
void to_json(nlohmann::json& j, const NcclPaths& v);
void from_json(const nlohmann::json& j, NcclPaths& v);
void to_json(nlohmann::json& j, const SmokeAllreduce& v);
void from_json(const nlohmann::json& j, SmokeAllreduce& v);
void to_json(nlohmann::json& j, const RankEnv& v);
void from_json(const nlohmann::json& j, RankEnv& v);

// "2.28.3" from 22803; "9.14.0" from 91400; "13.0" from 13000 (CUDA's own encoding).
std::string dotted_version(int code);  // major*10000 + minor*100 + patch: NCCL >= 2.9, cuDNN 9, cuBLAS
std::string cuda_version_string(int code);
// "4.0" from NVML's nvmlNvlinkVersion_t 6; "?" for unknown values.
std::string nvlink_version_name(int nvml_version);

}  // namespace gpuscale::results
