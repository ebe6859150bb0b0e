#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <string>

#include "harness/Check.hpp"
#include "workloads/DeviceKernels.hpp"
#include "workloads/RandomValue.hpp"

namespace gpuscale::workloads::kernels {
namespace {

__device__ inline float load(const void* p, harness::DataType t, std::size_t i) {
  switch (t) {
    case harness::DataType::float16:
      return __half2float(static_cast<const __half*>(p)[i]);
    case harness::DataType::bfloat16:
      return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default:
      return static_cast<const float*>(p)[i];
  }
}

__device__ inline void store(void* p, harness::DataType t, std::size_t i, float v) {
  switch (t) {
    case harness::DataType::float16:
      static_cast<__half*>(p)[i] = __float2half_rn(v);
      break;
    case harness::DataType::bfloat16:
      static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
      break;
    default:
      static_cast<float*>(p)[i] = v;
      break;
  }
}

__global__ void fill_kernel(void* data, harness::DataType type, std::size_t count, std::uint64_t seed, float scale) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    store(data, type, i, uniform_value(seed, i, scale));
}

__global__ void convert_kernel(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type,
                               std::size_t count, bool add) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const float v = load(src, src_type, i);
    store(dst, dst_type, i, add ? load(dst, dst_type, i) + v : v);
  }
}

void require_layer_type(harness::DataType t) {
  if (t != harness::DataType::float32 && t != harness::DataType::float16 && t != harness::DataType::bfloat16)
    throw harness::UsageError("layer kernels handle float, half and bfloat16, not " +
                              std::string(harness::to_string(t)));
}

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t count) {
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(wanted < 65536 ? (wanted ? wanted : 1) : 65536);  // grid-stride beyond
}

}  // namespace

void fill_uniform(void* data, harness::DataType type, std::size_t count, std::uint64_t seed, float scale,
                  void* stream) {
  require_layer_type(type);
  fill_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(data, type, count, seed, scale);
  GPUSCALE_CHECK_LAUNCH();
}

void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type, std::size_t count,
             bool add, void* stream) {
  require_layer_type(src_type);
  require_layer_type(dst_type);
  convert_kernel<<<blocks_for(count), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(src, src_type, dst, dst_type,
                                                                                        count, add);
  GPUSCALE_CHECK_LAUNCH();
}

}  // namespace gpuscale::workloads::kernels
