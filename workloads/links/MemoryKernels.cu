#include "workloads/links/MemoryKernels.hpp"

#include <cuda_runtime.h>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/DeviceKernels.hpp"

namespace gpuscale::workloads::kernels {
namespace {

constexpr int kThreads = 256;

__global__ void fill_index_kernel(float* data, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    data[i] = static_cast<float>(i % 1024) * 0.5f + 1.0f;
}

// 16-byte loads and stores over the aligned body, one float at a time over the tail: the widest
// accesses are what reach the memory's bandwidth.
__global__ void triad_kernel(float* a, const float* b, const float* c, float scalar, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t vectors = count / 4;
  auto* a4 = reinterpret_cast<float4*>(a);
  const auto* b4 = reinterpret_cast<const float4*>(b);
  const auto* c4 = reinterpret_cast<const float4*>(c);
  for (std::size_t i = first; i < vectors; i += stride) {
    const float4 x = b4[i], y = c4[i];
    a4[i] = make_float4(x.x + scalar * y.x, x.y + scalar * y.y, x.z + scalar * y.z, x.w + scalar * y.w);
  }
  for (std::size_t i = vectors * 4 + first; i < count; i += stride) a[i] = b[i] + scalar * c[i];
}

// Enough blocks to keep every SM's memory pipeline full, few enough that each thread loops.
unsigned grid_for(std::size_t items) {
  const std::size_t wanted = (items + kThreads - 1) / kThreads;
  const std::size_t most = static_cast<std::size_t>(current_device_sms()) * 8;
  return static_cast<unsigned>(wanted < most ? (wanted ? wanted : 1) : most);
}

}  // namespace

void fill_index(float* data, std::size_t count, void* stream) {
  fill_index_kernel<<<grid_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(data, count);
  GPUSCALE_LAUNCH_OK();
}

void triad(float* a, const float* b, const float* c, float scalar, std::size_t count, void* stream) {
  triad_kernel<<<grid_for(count / 4 + 1), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(a, b, c, scalar, count);
  GPUSCALE_LAUNCH_OK();
}

}  // namespace gpuscale::workloads::kernels
