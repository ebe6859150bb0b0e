// The GPU data verifier: the pattern (Pattern.hpp, shared with the host verifier) evaluated by kernels, so
// checking a 1 GiB buffer costs milliseconds and nothing crosses PCIe but one counter.
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "collectives/DataVerifier.hpp"
#include "harness/LibraryCall.hpp"

namespace gpuscale::collectives {
namespace {

using harness::DataType;

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;  // grid-stride beyond this

template <class T>
struct Convert {
  __device__ static T from(std::int64_t v) { return static_cast<T>(v); }
  __device__ static double to(T v) { return static_cast<double>(v); }
};
template <>
struct Convert<__half> {
  __device__ static __half from(std::int64_t v) { return __float2half_rn(static_cast<float>(v)); }
  __device__ static double to(__half v) { return static_cast<double>(__half2float(v)); }
};
template <>
struct Convert<__nv_bfloat16> {
  __device__ static __nv_bfloat16 from(std::int64_t v) { return __float2bfloat16_rn(static_cast<float>(v)); }
  __device__ static double to(__nv_bfloat16 v) { return static_cast<double>(__bfloat162float(v)); }
};

template <class T>
__global__ void fill_kernel(T* data, std::uint64_t count, pattern::Spec spec) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    data[i] = Convert<T>::from(pattern::input(spec, spec.rank, i));
}

template <class T>
__global__ void check_kernel(const T* data, std::uint64_t count, pattern::Spec spec, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    if (!pattern::matches(spec, Convert<T>::to(data[i]), pattern::expected(spec, i))) ++mine;
  if (mine) atomicAdd(wrong, mine);
}

unsigned blocks_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? (blocks ? blocks : 1) : kMaxBlocks);
}

template <class F>
void with_type(DataType type, F&& f) {
  switch (type) {
    case DataType::int8: f(static_cast<std::int8_t*>(nullptr)); break;
    case DataType::uint8: f(static_cast<std::uint8_t*>(nullptr)); break;
    case DataType::int32: f(static_cast<std::int32_t*>(nullptr)); break;
    case DataType::uint32: f(static_cast<std::uint32_t*>(nullptr)); break;
    case DataType::int64: f(static_cast<std::int64_t*>(nullptr)); break;
    case DataType::uint64: f(static_cast<std::uint64_t*>(nullptr)); break;
    case DataType::float16: f(static_cast<__half*>(nullptr)); break;
    case DataType::bfloat16: f(static_cast<__nv_bfloat16*>(nullptr)); break;
    case DataType::float32: f(static_cast<float*>(nullptr)); break;
    case DataType::float64: f(static_cast<double*>(nullptr)); break;
  }
}

cudaStream_t native(harness::Stream& s) { return static_cast<cudaStream_t>(s.native()); }

class DeviceDataVerifier final : public DataVerifier {
 public:
  DeviceDataVerifier() {
    GPUSCALE_CUDA_OK(cudaMalloc(&wrong_device_, sizeof(unsigned long long)));
    GPUSCALE_CUDA_OK(cudaMallocHost(&wrong_host_, sizeof(unsigned long long)));
  }
  ~DeviceDataVerifier() override {
    if (harness::fatal_error_raised()) return;  // freeing would wait on a device that may have stopped
    if (cudaFree(wrong_device_) != cudaSuccess || cudaFreeHost(wrong_host_) != cudaSuccess)
      std::fprintf(stderr, "%s freeing the data verifier's counter failed\n", harness::error_location().c_str());
  }

  void fill(void* data, std::size_t count, DataType type, const pattern::Spec& spec, harness::Stream& s) override {
    if (count == 0) return;
    with_type(type, [&](auto* tag) {
      fill_kernel<<<blocks_for(count), kThreads, 0, native(s)>>>(static_cast<decltype(tag)>(data), count, spec);
    });
    GPUSCALE_LAUNCH_OK();
  }

  void clear(void* data, std::size_t bytes, harness::Stream& s) override {
    if (bytes) GPUSCALE_CUDA_OK(cudaMemsetAsync(data, 0, bytes, native(s)));
  }

  std::uint64_t count_wrong(const void* data, std::size_t count, DataType type, const pattern::Spec& spec,
                            harness::Stream& s, const harness::Deadline& deadline) override {
    if (count == 0) return 0;
    GPUSCALE_CUDA_OK(cudaMemsetAsync(wrong_device_, 0, sizeof(unsigned long long), native(s)));
    with_type(type, [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      check_kernel<<<blocks_for(count), kThreads, 0, native(s)>>>(static_cast<const T*>(data), count, spec,
                                                                 wrong_device_);
    });
    GPUSCALE_LAUNCH_OK();
    GPUSCALE_CUDA_OK(cudaMemcpyAsync(wrong_host_, wrong_device_, sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, native(s)));
    s.synchronize(deadline, "the collectives data verification");
    return *wrong_host_;
  }

 private:
  unsigned long long* wrong_device_ = nullptr;
  unsigned long long* wrong_host_ = nullptr;
};

}  // namespace

std::unique_ptr<DataVerifier> make_device_data_verifier() { return std::make_unique<DeviceDataVerifier>(); }

}  // namespace gpuscale::collectives
