#include "harness/CudaBackend.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>

#include "harness/Activity.hpp"
#include "harness/Check.hpp"
#include "harness/Interrupts.hpp"
#include "harness/CudaProbe.hpp"
#include "harness/NcclCommunicator.hpp"
#include "results/RankEnv.hpp"

namespace gpuscale::harness {
namespace {

// Polls until the event (or the stream) is done: a blocking CUDA wait could hang for ever.
template <class Query>
void poll_until_done(Query query, const Deadline& deadline, std::string_view what) {
  for (int polls = 0;; ++polls) {
    const cudaError_t state = query();
    if (state == cudaSuccess) return;
    if (state != cudaErrorNotReady) GPUSCALE_CHECK_CUDA(state);
    poll_interrupts();
    if (deadline.expired())
      throw TimeoutError(error_location() + " timed out waiting for " + std::string(what) + " (" +
                         describe(current_activity()) + ")");
    if (polls > 1000) std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

class DeviceBuffer final : public Buffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) { GPUSCALE_CHECK_CUDA(cudaMalloc(&data_, bytes ? bytes : 1)); }
  ~DeviceBuffer() override {
    if (cudaFree(data_) != cudaSuccess) std::fprintf(stderr, "%s cudaFree failed\n", error_location().c_str());
  }
  void* data() noexcept override { return data_; }
  const void* data() const noexcept override { return data_; }
  std::size_t bytes() const noexcept override { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_;
};

class CudaStream final : public Stream {
 public:
  explicit CudaStream(StreamPriority priority) {
    int least = 0, greatest = 0;
    GPUSCALE_CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GPUSCALE_CHECK_CUDA(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking,
                                                     priority == StreamPriority::high ? greatest : least));
  }
  ~CudaStream() override { cudaStreamDestroy(stream_); }
  void synchronize(const Deadline& deadline, std::string_view what) override {
    poll_until_done([this] { return cudaStreamQuery(stream_); }, deadline, what);
  }
  void* native() noexcept override { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class EventTimer final : public Timer {
 public:
  explicit EventTimer(double timeout_s) : timeout_s_(timeout_s) {
    GPUSCALE_CHECK_CUDA(cudaEventCreate(&start_));
    GPUSCALE_CHECK_CUDA(cudaEventCreate(&stop_));
  }
  ~EventTimer() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(Stream& s) override { GPUSCALE_CHECK_CUDA(cudaEventRecord(start_, static_cast<cudaStream_t>(s.native()))); }
  void stop(Stream& s) override { GPUSCALE_CHECK_CUDA(cudaEventRecord(stop_, static_cast<cudaStream_t>(s.native()))); }
  double elapsed_s() override {
    poll_until_done([this] { return cudaEventQuery(stop_); }, Deadline::after(timeout_s_), "a timed interval");
    float ms = 0;
    GPUSCALE_CHECK_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  double timeout_s_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

class CudaBackend final : public Backend {
 public:
  CudaBackend(int device, double op_timeout_s) : device_(device), op_timeout_s_(op_timeout_s) {
    GPUSCALE_CHECK_CUDA(cudaSetDevice(device_));
    GPUSCALE_CHECK_CUDA(cudaFree(nullptr));  // create the context now, not inside a timed region
    copies_ = std::make_unique<CudaStream>(StreamPriority::normal);
  }
  BackendKind kind() const noexcept override { return BackendKind::cuda; }
  void probe(results::RankEnv& env) override { probe_cuda_device(device_, env); }
  std::unique_ptr<Buffer> allocate(std::size_t bytes) override { return std::make_unique<DeviceBuffer>(bytes); }
  // cudaMemcpy could block for ever behind a hung device: copy asynchronously and poll instead.
  void upload(Buffer& dst, const void* src, std::size_t bytes) override {
    GPUSCALE_CHECK_CUDA(cudaMemcpyAsync(dst.data(), src, bytes, cudaMemcpyHostToDevice, copy_stream()));
    copies_->synchronize(Deadline::after(op_timeout_s_), "a host-to-device copy");
  }
  void download(void* dst, const Buffer& src, std::size_t bytes) override {
    GPUSCALE_CHECK_CUDA(cudaMemcpyAsync(dst, src.data(), bytes, cudaMemcpyDeviceToHost, copy_stream()));
    copies_->synchronize(Deadline::after(op_timeout_s_), "a device-to-host copy");
  }
  std::unique_ptr<Stream> create_stream(StreamPriority priority) override {
    return std::make_unique<CudaStream>(priority);
  }
  std::unique_ptr<Timer> create_timer() override { return std::make_unique<EventTimer>(op_timeout_s_); }
  std::unique_ptr<Communicator> create_communicator(const World& world, const Deadline& deadline) override {
    return make_nccl_communicator(world, deadline, op_timeout_s_);
  }

 private:
  cudaStream_t copy_stream() { return static_cast<cudaStream_t>(copies_->native()); }

  int device_;
  double op_timeout_s_;
  std::unique_ptr<CudaStream> copies_;
};

}  // namespace

bool cuda_backend_built() noexcept { return true; }

int cuda_visible_device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return count;
}

std::unique_ptr<Backend> make_cuda_backend(int device, double op_timeout_s) {
  return std::make_unique<CudaBackend>(device, op_timeout_s);
}

}  // namespace gpuscale::harness
