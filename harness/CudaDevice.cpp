#include "harness/CudaDevice.hpp"

#include <cstdio>
#include <fstream>

#include <cuda_runtime.h>

#include "harness/LibraryCall.hpp"
#include "results/base/Format.hpp"
#include "results/base/Utf8.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {
namespace {

std::string uuid_string(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

int sysfs_numa_node(const std::string& bus_id) {
  std::ifstream in("/sys/bus/pci/devices/" + bus_id + "/numa_node");
  int node = -1;
  if (!(in >> node)) return -1;
  return node;
}

}  // namespace

std::string cuda_pci_bus_id(int device) {
  char id[32] = {};
  GPUSCALE_CUDA_OK(cudaDeviceGetPCIBusId(id, sizeof id, device));
  return results::normalize_pci_bus_id(id);
}

void describe_cuda_device(int device, results::RankEnv& env) {
  env.backend = "cuda";
  GPUSCALE_CUDA_OK(cudaGetDeviceCount(&env.visible_gpu_count));
  cudaDeviceProp props{};
  GPUSCALE_CUDA_OK(cudaGetDeviceProperties(&props, device));
  results::GpuInfo gpu;
  gpu.cuda_index = device;
  gpu.name = results::valid_utf8(props.name);
  gpu.uuid = uuid_string(props.uuid);
  gpu.pci_bus_id = results::valid_utf8(cuda_pci_bus_id(device));
  gpu.cc_major = props.major;
  gpu.cc_minor = props.minor;
  gpu.sm_count = props.multiProcessorCount;
  std::size_t free_bytes = 0, total_bytes = 0;
  GPUSCALE_CUDA_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
  gpu.memory_free_bytes = free_bytes;
  gpu.memory_total_bytes = total_bytes;
  gpu.numa_node = sysfs_numa_node(gpu.pci_bus_id);
  env.gpu = std::move(gpu);
}

}  // namespace gpuscale::harness
