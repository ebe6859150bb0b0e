#pragma once
// The environment of one rank, as probed on that rank and gathered to rank 0. Plain data: the
// probes (harness/) fill it, the checks read it, the reporters print it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/HealthRecords.hpp"
#include "results/SlurmInfo.hpp"

namespace gpuscale::results {

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
  // NVML figures: nullopt where NVML is absent or the GPU does not support the query.
  std::optional<unsigned> sm_clock_mhz, sm_clock_max_mhz, memory_clock_mhz;
  std::optional<std::uint64_t> clock_event_reasons;  // NVML bit mask
  std::optional<unsigned> temperature_c;
  std::optional<double> power_draw_w, power_limit_w;
  std::optional<std::uint64_t> ecc_corrected_volatile, ecc_uncorrected_volatile;
  std::optional<unsigned> remapped_rows_pending, remapped_rows_failure;
  // Configuration (judge/GpuConfigChecks.hpp judges it); nullopt where NVML says NOT_SUPPORTED.
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
struct SmokeTest {
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
  bool backend_fallback = false;   // cpu chosen by --device auto because no GPU was visible
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
  SmokeTest smoke;
  std::optional<SlurmInfo> slurm;  // set when the rank runs inside a Slurm job
  Tenancy tenancy;                 // other processes on this rank's GPU, before any work
  std::vector<LibraryFile> nccl_libraries;  // libnccl and the plugins NCCL would load
  NetworkAdapters network;         // this rank's node's RDMA adapters (every rank of a node reads them)
};

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
void to_json(nlohmann::json& j, const SmokeTest& v);
void from_json(const nlohmann::json& j, SmokeTest& v);
void to_json(nlohmann::json& j, const RankEnv& v);
void from_json(const nlohmann::json& j, RankEnv& v);

// "2.28.3" from 22803; "9.14.0" from 91400; "13.0" from 13000 (CUDA's own encoding).
std::string dotted_version(int code);  // major*10000 + minor*100 + patch: NCCL >= 2.9, cuDNN 9, cuBLAS
std::string cuda_version_string(int code);
// "4.0" from NVML's nvmlNvlinkVersion_t 6; "?" for unknown values.
std::string nvlink_version_name(int nvml_version);

}  // namespace gpuscale::results
