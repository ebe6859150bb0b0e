#include "workloads/TrainKernels.hpp"

#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "harness/Check.hpp"

namespace gpuscale::workloads::kernels {
namespace {

using harness::DataType;

__device__ inline float to_f(float v) { return v; }
__device__ inline float to_f(__half v) { return __half2float(v); }
__device__ inline float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T>
__device__ inline T from_f(float v);
template <>
__device__ inline float from_f<float>(float v) { return v; }
template <>
__device__ inline __half from_f<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ inline __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

#define GPUSCALE_GRID_STRIDE(i, n) \
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)

template <class T>
__global__ void relu_kernel(T* data, std::size_t n) {
  GPUSCALE_GRID_STRIDE(i, n) {
    if (!(to_f(data[i]) > 0.0f)) data[i] = from_f<T>(0.0f);
  }
}

template <class T>
__global__ void relu_backward_kernel(T* dy, const T* y, std::size_t n) {
  GPUSCALE_GRID_STRIDE(i, n) {
    if (!(to_f(y[i]) > 0.0f)) dy[i] = from_f<T>(0.0f);
  }
}

template <class T>
__global__ void fill_kernel(T* data, std::size_t n, float value) {
  const T v = from_f<T>(value);
  GPUSCALE_GRID_STRIDE(i, n) { data[i] = v; }
}

template <class T>
__global__ void mean_kernel(const T* data, std::size_t n, float* loss) {
  __shared__ float partial[256];
  float sum = 0;
  GPUSCALE_GRID_STRIDE(i, n) { sum += to_f(data[i]); }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(loss, partial[0] / static_cast<float>(n));
}

// ny, nx: elements per sample; the grid covers every sample.
template <class T>
__global__ void join_forward_kernel(const T* y, std::size_t ny, T* x, std::size_t nx, std::size_t total) {
  GPUSCALE_GRID_STRIDE(i, total) {
    const std::size_t s = i / nx, j = i % nx;
    x[i] = y[s * ny + j % ny];
  }
}

template <class T>
__global__ void join_backward_kernel(const T* dx, std::size_t nx, T* dy, std::size_t ny, std::size_t total) {
  GPUSCALE_GRID_STRIDE(i, total) {
    const std::size_t s = i / ny, k = i % ny;
    float sum = 0;
    for (std::size_t j = k; j < nx; j += ny) sum += to_f(dx[s * nx + j]);
    dy[i] = from_f<T>(sum);
  }
}

// Four elements per thread where aligned: the update is bound by memory bandwidth.
template <class T>
__global__ void sgd_kernel(float* w, const float* g, std::size_t n, float lr, T* copy) {
  const std::size_t n4 = n / 4;
  auto* w4 = reinterpret_cast<float4*>(w);
  const auto* g4 = reinterpret_cast<const float4*>(g);
  GPUSCALE_GRID_STRIDE(i, n4) {
    float4 a = w4[i];
    const float4 b = g4[i];
    a.x -= lr * b.x;
    a.y -= lr * b.y;
    a.z -= lr * b.z;
    a.w -= lr * b.w;
    w4[i] = a;
    if (copy) {
      copy[4 * i] = from_f<T>(a.x);
      copy[4 * i + 1] = from_f<T>(a.y);
      copy[4 * i + 2] = from_f<T>(a.z);
      copy[4 * i + 3] = from_f<T>(a.w);
    }
  }
  GPUSCALE_GRID_STRIDE(i, n - 4 * n4) {
    const std::size_t k = 4 * n4 + i;
    w[k] -= lr * g[k];
    if (copy) copy[k] = from_f<T>(w[k]);
  }
}

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t count) {
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(wanted < 8192 ? (wanted ? wanted : 1) : 8192);  // grid-stride beyond
}

cudaStream_t native(void* s) { return static_cast<cudaStream_t>(s); }

// Calls f(T{}) with T the element type of `type`.
template <class F>
void with_type(DataType type, F&& f) {
  switch (type) {
    case DataType::float32: f(float{}); return;
    case DataType::float16: f(__half{}); return;
    case DataType::bfloat16: f(__nv_bfloat16{}); return;
    default: throw harness::UsageError("training kernels handle float, half and bfloat16, not " +
                                       std::string(harness::to_string(type)));
  }
}

}  // namespace

void relu_forward(void* data, DataType type, std::size_t n, void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    relu_kernel<T><<<blocks_for(n), kThreads, 0, native(s)>>>(static_cast<T*>(data), n);
  });
  GPUSCALE_CHECK_LAUNCH();
}

void relu_backward(void* dy, const void* y, DataType type, std::size_t n, void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    relu_backward_kernel<T><<<blocks_for(n), kThreads, 0, native(s)>>>(static_cast<T*>(dy), static_cast<const T*>(y), n);
  });
  GPUSCALE_CHECK_LAUNCH();
}

void fill(void* data, DataType type, std::size_t n, float value, void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    fill_kernel<T><<<blocks_for(n), kThreads, 0, native(s)>>>(static_cast<T*>(data), n, value);
  });
  GPUSCALE_CHECK_LAUNCH();
}

void mean(const void* data, DataType type, std::size_t n, float* loss, void* s) {
  GPUSCALE_CHECK_CUDA(cudaMemsetAsync(loss, 0, sizeof(float), native(s)));
  with_type(type, [&](auto t) {
    using T = decltype(t);
    const unsigned blocks = blocks_for(n) < 1024 ? blocks_for(n) : 1024;
    mean_kernel<T><<<blocks, kThreads, 0, native(s)>>>(static_cast<const T*>(data), n, loss);
  });
  GPUSCALE_CHECK_LAUNCH();
}

void join_forward(const void* y, std::size_t ny, void* x, std::size_t nx, std::size_t samples, DataType type,
                  void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    join_forward_kernel<T><<<blocks_for(nx), kThreads, 0, native(s)>>>(static_cast<const T*>(y), ny / samples,
                                                                        static_cast<T*>(x), nx / samples, nx);
  });
  GPUSCALE_CHECK_LAUNCH();
}

void join_backward(const void* dx, std::size_t nx, void* dy, std::size_t ny, std::size_t samples, DataType type,
                   void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    join_backward_kernel<T><<<blocks_for(ny), kThreads, 0, native(s)>>>(static_cast<const T*>(dx), nx / samples,
                                                                         static_cast<T*>(dy), ny / samples, ny);
  });
  GPUSCALE_CHECK_LAUNCH();
}

void sgd(float* w, const float* g, std::size_t n, float lr, void* copy, DataType copy_type, void* s) {
  with_type(copy ? copy_type : DataType::float32, [&](auto t) {
    using T = decltype(t);
    sgd_kernel<T><<<blocks_for(n / 4 + 1), kThreads, 0, native(s)>>>(w, g, n, lr, static_cast<T*>(copy));
  });
  GPUSCALE_CHECK_LAUNCH();
}

}  // namespace gpuscale::workloads::kernels
