#include "probes/CudaProbe.hpp"

#include <cstdio>
#include <fstream>

#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>

#include "harness/CudaDevice.hpp"
#include "harness/LibraryCall.hpp"
#include "harness/Nvml.hpp"
#include "results/base/Utf8.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::probes {
namespace {

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
    peer.peer_pci_bus_id = harness::cuda_pci_bus_id(other);
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

void probe_cuda_device(results::RankEnv& env) {
  if (!env.gpu) return;
  auto& gpu = *env.gpu;
  probe_peers(gpu.cuda_index, env.visible_gpu_count, gpu);
  probe_versions(env.versions);

  std::string why;
  if (auto nvml = harness::Nvml::load(why)) {
    env.versions.driver = results::valid_utf8(nvml->driver_version());
    nvml->describe(gpu);
  } else {
    env.versions.driver = results::valid_utf8(proc_driver_version());
    std::fprintf(stderr, "%s NVML unavailable (%s): clocks, power, ECC and NVLink not reported\n",
                 harness::error_location().c_str(), why.c_str());
  }
}

}  // namespace gpuscale::probes
