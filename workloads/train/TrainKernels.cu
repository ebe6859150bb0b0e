#include "workloads/train/TrainKernels.hpp"

#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/DeviceKernels.hpp"
#include "workloads/layers/KernelTypes.cuh"

namespace gpuscale::workloads::kernels {
namespace {

using harness::DataType;

template <class T>
__global__ void relu_kernel(T* data, std::size_t n) {
  GPUSCALE_GRID_STRIDE(i, n) {
    if (!(to_float(data[i]) > 0.0f)) data[i] = from_float<T>(0.0f);
  }
}

template <class T>
__global__ void relu_backward_kernel(T* dy, const T* y, std::size_t n) {
  GPUSCALE_GRID_STRIDE(i, n) {
    if (!(to_float(y[i]) > 0.0f)) dy[i] = from_float<T>(0.0f);
  }
}

template <class T>
__global__ void fill_kernel(T* data, std::size_t n, float value) {
  const T v = from_float<T>(value);
  GPUSCALE_GRID_STRIDE(i, n) { data[i] = v; }
}

template <class T>
__global__ void mean_kernel(const T* data, std::size_t n, float* loss) {
  __shared__ float partial[256];
  float sum = 0;
  GPUSCALE_GRID_STRIDE(i, n) { sum += to_float(data[i]); }
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
    for (std::size_t j = k; j < nx; j += ny) sum += to_float(dx[s * nx + j]);
    dy[i] = from_float<T>(sum);
  }
}

// w -= lr g, then copy = w in the compute type, one pack per thread step for the first `packs` packs
// (the caller checks their alignment), the rest element by element: the update is bound by memory
// bandwidth. G: the gradient's type (float32, or the wire type when the weight-gradient GEMM writes
// it straight into DDP's bucket); T: the compute copy's type (ignored when copy is null).
template <class G, class T>
__global__ void sgd_kernel(float* w, const G* g, std::size_t n, std::size_t packs, float lr, T* copy) {
  GPUSCALE_GRID_STRIDE(i, packs) {
    Pack<float> a = reinterpret_cast<Pack<float>*>(w)[i];
    const Pack<G> b = reinterpret_cast<const Pack<G>*>(g)[i];
    Pack<T> c;
#pragma unroll
    for (int k = 0; k < kVector; ++k) {
      a.v[k] -= lr * to_float(b.v[k]);
      c.v[k] = from_float<T>(a.v[k]);
    }
    reinterpret_cast<Pack<float>*>(w)[i] = a;
    if (copy) reinterpret_cast<Pack<T>*>(copy)[i] = c;
  }
  GPUSCALE_GRID_STRIDE(i, n - packs * kVector) {
    const std::size_t k = packs * kVector + i;
    w[k] -= lr * to_float(g[k]);
    if (copy) copy[k] = from_float<T>(w[k]);
  }
}

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t count) {
  const std::size_t wanted = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(wanted < 8192 ? (wanted ? wanted : 1) : 8192);  // grid-stride beyond
}

cudaStream_t native(void* s) { return static_cast<cudaStream_t>(s); }

constexpr unsigned kNarrowBlocksPerSm = 4;

unsigned sgd_blocks(std::size_t threads, bool narrow) {
  const unsigned wanted = blocks_for(threads);
  if (!narrow) return wanted;
  const unsigned cap = kNarrowBlocksPerSm * static_cast<unsigned>(current_device_sms());
  return wanted < cap ? wanted : cap;
}

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
  GPUSCALE_LAUNCH_OK();
}

void relu_backward(void* dy, const void* y, DataType type, std::size_t n, void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    relu_backward_kernel<T><<<blocks_for(n), kThreads, 0, native(s)>>>(static_cast<T*>(dy), static_cast<const T*>(y), n);
  });
  GPUSCALE_LAUNCH_OK();
}

void fill(void* data, DataType type, std::size_t n, float value, void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    fill_kernel<T><<<blocks_for(n), kThreads, 0, native(s)>>>(static_cast<T*>(data), n, value);
  });
  GPUSCALE_LAUNCH_OK();
}

void mean(const void* data, DataType type, std::size_t n, float* loss, void* s) {
  GPUSCALE_CUDA_OK(cudaMemsetAsync(loss, 0, sizeof(float), native(s)));
  with_type(type, [&](auto t) {
    using T = decltype(t);
    const unsigned blocks = blocks_for(n) < 1024 ? blocks_for(n) : 1024;
    mean_kernel<T><<<blocks, kThreads, 0, native(s)>>>(static_cast<const T*>(data), n, loss);
  });
  GPUSCALE_LAUNCH_OK();
}

void join_forward(const void* y, std::size_t ny, void* x, std::size_t nx, std::size_t samples, DataType type,
                  void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    join_forward_kernel<T><<<blocks_for(nx), kThreads, 0, native(s)>>>(static_cast<const T*>(y), ny / samples,
                                                                        static_cast<T*>(x), nx / samples, nx);
  });
  GPUSCALE_LAUNCH_OK();
}

void join_backward(const void* dx, std::size_t nx, void* dy, std::size_t ny, std::size_t samples, DataType type,
                   void* s) {
  with_type(type, [&](auto t) {
    using T = decltype(t);
    join_backward_kernel<T><<<blocks_for(ny), kThreads, 0, native(s)>>>(static_cast<const T*>(dx), nx / samples,
                                                                         static_cast<T*>(dy), ny / samples, ny);
  });
  GPUSCALE_LAUNCH_OK();
}

void sgd(float* w, const void* g, DataType grad_type, std::size_t n, float lr, void* copy, DataType copy_type,
         bool narrow, void* s) {
  with_type(grad_type, [&](auto gt) {
    using G = decltype(gt);
    with_type(copy ? copy_type : DataType::float32, [&](auto ct) {
      using T = decltype(ct);
      const bool whole = aligned(w, sizeof(Pack<float>)) && aligned(g, sizeof(Pack<G>)) &&
                         (!copy || aligned(copy, sizeof(Pack<T>)));
      const std::size_t packs = whole ? n / kVector : 0;
      sgd_kernel<G, T><<<sgd_blocks(packs + (n - packs * kVector), narrow), kThreads, 0, native(s)>>>(
          w, static_cast<const G*>(g), n, packs, lr, static_cast<T*>(copy));
    });
  });
  GPUSCALE_LAUNCH_OK();
}

}  // namespace gpuscale::workloads::kernels
