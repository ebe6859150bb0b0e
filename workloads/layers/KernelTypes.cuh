#pragma once
// Helpers shared by the kernel files (.cu only): float conversions of the three element types (round
// to nearest even), packs of four elements that move as one wide load or store with the host-side
// alignment test for them, and the grid-stride loop.
#include <cstddef>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace gpuscale::workloads::kernels {

__device__ inline float to_float(float v) { return v; }
__device__ inline float to_float(__half v) { return __half2float(v); }
__device__ inline float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ inline T from_float(float v);
template <> __device__ inline float from_float<float>(float v) { return v; }
template <> __device__ inline __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

constexpr int kVector = 4;  // elements per pack: 16-byte float accesses, 8-byte half ones
template <class T> struct alignas(kVector * sizeof(T)) Pack { T v[kVector]; };
inline bool aligned(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

}  // namespace gpuscale::workloads::kernels

#define GPUSCALE_GRID_STRIDE(i, n) \
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
