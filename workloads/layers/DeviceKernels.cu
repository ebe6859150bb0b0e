#include "workloads/layers/DeviceKernels.hpp"

#include <cstdint>
#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/KernelTypes.cuh"
#include "workloads/layers/RandomValue.hpp"

namespace gpuscale::workloads::kernels {
namespace {

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

// Element types by DataType, for the converts compiled per pair of types.
template <harness::DataType T> struct Storage;
template <> struct Storage<harness::DataType::float32> { using type = float; };
template <> struct Storage<harness::DataType::float16> { using type = __half; };
template <> struct Storage<harness::DataType::bfloat16> { using type = __nv_bfloat16; };

// A convert is a pure stream of bytes (gradient buckets, 100s of MB): the packs make each access one
// wide load or store. The first `packs` packs go whole (the caller checks their alignment; 0 when
// unaligned), the rest element by element.
template <class S, class D>
__global__ void convert_kernel(const S* src, D* dst, std::size_t count, std::size_t packs, bool add) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const auto* in = reinterpret_cast<const Pack<S>*>(src);
  auto* out = reinterpret_cast<Pack<D>*>(dst);
  for (std::size_t i = first; i < packs; i += stride) {
    const Pack<S> a = in[i];
    Pack<D> b;
    if (add) b = out[i];
#pragma unroll
    for (int k = 0; k < kVector; ++k) b.v[k] = from_float<D>(to_float(a.v[k]) + (add ? to_float(b.v[k]) : 0.0f));
    out[i] = b;
  }
  for (std::size_t i = packs * kVector + first; i < count; i += stride)
    dst[i] = from_float<D>(to_float(src[i]) + (add ? to_float(dst[i]) : 0.0f));
}

template <harness::DataType S, harness::DataType D>
void launch_convert(const void* src, void* dst, std::size_t count, bool add, cudaStream_t stream);

template <harness::DataType S>
void convert_from(const void* src, harness::DataType dst_type, void* dst, std::size_t count, bool add,
                  cudaStream_t stream) {
  switch (dst_type) {
    case harness::DataType::float16: return launch_convert<S, harness::DataType::float16>(src, dst, count, add, stream);
    case harness::DataType::bfloat16: return launch_convert<S, harness::DataType::bfloat16>(src, dst, count, add, stream);
    default: return launch_convert<S, harness::DataType::float32>(src, dst, count, add, stream);
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
  GPUSCALE_LAUNCH_OK();
}

namespace {

__global__ void hold_kernel(std::uint64_t ns) {
  std::uint64_t start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

}  // namespace

void hold(double seconds, void* stream) {
  const auto ns = static_cast<std::uint64_t>(seconds > 0 ? seconds * 1e9 : 0);
  hold_kernel<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(ns);
  GPUSCALE_LAUNCH_OK();
}

namespace {

template <harness::DataType S, harness::DataType D>
void launch_convert(const void* src, void* dst, std::size_t count, bool add, cudaStream_t stream) {
  using SrcT = typename Storage<S>::type;
  using DstT = typename Storage<D>::type;
  const bool whole = aligned(src, sizeof(Pack<SrcT>)) && aligned(dst, sizeof(Pack<DstT>));
  const std::size_t packs = whole ? count / kVector : 0;
  convert_kernel<<<blocks_for(whole ? (count + kVector - 1) / kVector : count), kThreads, 0, stream>>>(
      static_cast<const SrcT*>(src), static_cast<DstT*>(dst), count, packs, add);
  GPUSCALE_LAUNCH_OK();
}

}  // namespace

void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type, std::size_t count,
             bool add, void* stream) {
  require_layer_type(src_type);
  require_layer_type(dst_type);
  const auto s = static_cast<cudaStream_t>(stream);
  switch (src_type) {
    case harness::DataType::float16: return convert_from<harness::DataType::float16>(src, dst_type, dst, count, add, s);
    case harness::DataType::bfloat16: return convert_from<harness::DataType::bfloat16>(src, dst_type, dst, count, add, s);
    default: return convert_from<harness::DataType::float32>(src, dst_type, dst, count, add, s);
  }
}

int current_device_sms() {
  int device = 0, sms = 0;
  GPUSCALE_CUDA_OK(cudaGetDevice(&device));
  GPUSCALE_CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace gpuscale::workloads::kernels
