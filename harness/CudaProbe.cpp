#include "harness/CudaProbe.hpp"

#include <cstdio>
#include <fstream>

#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>

#include "harness/LibraryCall.hpp"
#include "harness/Nvml.hpp"
#include "results/render/Format.hpp"
#include "results/schema/RankEnv.hpp"
#include "results/render/Utf8.hpp"

namespace gpuscale::harness {
namespace {

std::string uuid_string(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

std::string pci_bus_id(int device) {
  char id[32] = {};
  GPUSCALE_CUDA_OK(cudaDeviceGetPCIBusId(id, sizeof id, device));
  return results::normalize_pci_bus_id(id);
}

int sysfs_numa_node(const std::string& bus_id) {
  std::ifstream in("/sys/bus/pci/devices/" + bus_id + "/numa_node");
  int node = -1;
  if (!(in >> node)) return -1;
  return node;
}

// Driver version without NVML: the kernel module states it.
std::string proc_driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string word;
  while (in >> word)
    if (word == "Kernel" && (in >> word) && word == "Module" && (in >> word)) return word;
  return "";
}

void probe_versions(results::Versions& v) {
  GPUSCALE_CUDA_OK(cudaDriverGetVersion(&v.cuda_driver_api));
  GPUSCALE_CUDA_OK(cudaRuntimeGetVersion(&v.cuda_runtime));
  v.cublas = static_cast<int>(cublasLtGetVersion());
  v.cudnn_header = CUDNN_VERSION;
  v.cudnn_library = static_cast<int>(cudnnGetVersion());
  v.nccl_header = NCCL_VERSION_CODE;
  GPUSCALE_NCCL_OK(ncclGetVersion(&v.nccl_library));
}

void probe_peers(int device, int count, results::GpuInfo& gpu) {
  for (int other = 0; other < count; ++other) {
    if (other == device) continue;
    results::PeerAccess peer;
    peer.peer_pci_bus_id = pci_bus_id(other);
    peer.cuda_visible = true;
    int can = 0;
    GPUSCALE_CUDA_OK(cudaDeviceCanAccessPeer(&can, device, other));
    peer.can_access = can != 0;
    if (cudaDeviceGetP2PAttribute(&peer.performance_rank, cudaDevP2PAttrPerformanceRank, device, other) != cudaSuccess) {
      cudaGetLastError();
      peer.performance_rank = -1;
    }
    gpu.peers.push_back(peer);
  }
}

}  // namespace

void probe_cuda_device(int device, results::RankEnv& env) {
  env.backend = "cuda";
  GPUSCALE_CUDA_OK(cudaGetDeviceCount(&env.visible_gpu_count));
  cudaDeviceProp props{};
  GPUSCALE_CUDA_OK(cudaGetDeviceProperties(&props, device));
  results::GpuInfo gpu;
  gpu.cuda_index = device;
  gpu.name = results::valid_utf8(props.name);
  gpu.uuid = uuid_string(props.uuid);
  gpu.pci_bus_id = results::valid_utf8(pci_bus_id(device));
  gpu.cc_major = props.major;
  gpu.cc_minor = props.minor;
  gpu.sm_count = props.multiProcessorCount;
  std::size_t free_bytes = 0, total_bytes = 0;
  GPUSCALE_CUDA_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
  gpu.memory_free_bytes = free_bytes;
  gpu.memory_total_bytes = total_bytes;
  gpu.numa_node = sysfs_numa_node(gpu.pci_bus_id);
  probe_peers(device, env.visible_gpu_count, gpu);
  probe_versions(env.versions);

  std::string why;
  if (auto nvml = Nvml::load(why)) {
    env.versions.driver = results::valid_utf8(nvml->driver_version());
    nvml->describe(gpu);
  } else {
    env.versions.driver = results::valid_utf8(proc_driver_version());
    std::fprintf(stderr, "%s NVML unavailable (%s): clocks, power, ECC and NVLink not reported\n",
                 error_location().c_str(), why.c_str());
  }
  env.gpu = std::move(gpu);
}

}  // namespace gpuscale::harness
