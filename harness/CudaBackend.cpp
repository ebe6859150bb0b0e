#include "harness/CudaBackend.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include <cublasLt.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>

#include "harness/Activity.hpp"
#include "harness/CudaDevice.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/LibraryCall.hpp"
#include "harness/MemoryTracker.hpp"
#include "harness/NcclCommunicator.hpp"
#include "harness/NcclLog.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {
namespace {

// Polls until the event (or the stream) is done: a blocking CUDA wait could hang for ever.
template <class Query>
void poll_until_done(Query query, const Deadline& deadline, std::string_view what) {
  for (int polls = 0;; ++polls) {
    const cudaError_t state = query();
    if (state == cudaSuccess) return;
    if (state != cudaErrorNotReady) GPUSCALE_CUDA_OK(state);
    poll_interrupts();
    if (deadline.expired())
      throw TimeoutError(error_location() + " timed out waiting for " + std::string(what) + " (" +
                         describe(current_activity()) + ")");
    if (polls > 1000) std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

// Test seam (timers_hang): the stream waits for a host word that is never written, as it would
// behind a kernel that never ends; every later wait on the stream polls until its deadline. The
// driver's cuStreamWaitValue32 is found at run time, so nothing links the driver library.
void enqueue_wait_that_never_ends(cudaStream_t stream) {
  using WaitValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
  static const auto wait_value = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t rc = cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", &fn, 12000, cudaEnableDefault, &found);
    return rc == cudaSuccess && found == cudaDriverEntryPointSuccess ? reinterpret_cast<WaitValue32>(fn) : nullptr;
  }();
  static const CUdeviceptr word = [] {
    void* host = nullptr;
    GPUSCALE_CUDA_OK(cudaHostAlloc(&host, sizeof(std::uint32_t), cudaHostAllocMapped));
    *static_cast<std::uint32_t*>(host) = 0;
    void* device = nullptr;
    GPUSCALE_CUDA_OK(cudaHostGetDevicePointer(&device, host, 0));
    return reinterpret_cast<CUdeviceptr>(device);
  }();
  if (!wait_value || wait_value(static_cast<CUstream>(stream), word, 1, CU_STREAM_WAIT_VALUE_EQ) != CUDA_SUCCESS)
    throw std::runtime_error("GPUSCALE_TEST_FAULT=hang: this driver cannot make a stream wait on memory");
}

// Device memory (tracked for the high-water mark) or page-locked host memory (not tracked).
class CudaBuffer final : public Buffer {
 public:
  CudaBuffer(std::size_t bytes, MemoryTracker* device_tracker) : bytes_(bytes), tracker_(device_tracker) {
    const std::size_t size = bytes ? bytes : 1;
    const cudaError_t rc = tracker_ ? cudaMalloc(&data_, size) : cudaMallocHost(&data_, size);
    // Clear the error: a caller that turns out-of-memory into a skipped record goes on launching
    // kernels, and the next cudaGetLastError() must not report this allocation again.
    if (rc != cudaSuccess) cudaGetLastError();
    GPUSCALE_CUDA_OK(rc);
    if (tracker_) tracker_->allocated(bytes_);
  }
  ~CudaBuffer() override {
    if (fatal_error_raised()) return;  // freeing would wait on a device that may have stopped
    if ((tracker_ ? cudaFree(data_) : cudaFreeHost(data_)) != cudaSuccess)
      std::fprintf(stderr, "%s freeing CUDA memory failed\n", error_location().c_str());
    if (tracker_) tracker_->freed(bytes_);
  }
  void* data() noexcept override { return data_; }
  const void* data() const noexcept override { return data_; }
  std::size_t bytes() const noexcept override { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_;
  MemoryTracker* tracker_;
};

class CudaEvent final : public Event {
 public:
  CudaEvent() { GPUSCALE_CUDA_OK(cudaEventCreate(&event_)); }
  ~CudaEvent() override { cudaEventDestroy(event_); }
  void record(Stream& s) override { GPUSCALE_CUDA_OK(cudaEventRecord(event_, static_cast<cudaStream_t>(s.native()))); }
  void make_wait(Stream& s) override {
    GPUSCALE_CUDA_OK(cudaStreamWaitEvent(static_cast<cudaStream_t>(s.native()), event_, 0));
  }
  double seconds_since(Event& start, const Deadline& deadline) override {
    poll_until_done([this] { return cudaEventQuery(event_); }, deadline, "a timed event");
    float ms = 0;
    GPUSCALE_CUDA_OK(cudaEventElapsedTime(&ms, static_cast<CudaEvent&>(start).event_, event_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

class CudaStream final : public Stream {
 public:
  explicit CudaStream(StreamPriority priority) {
    int least = 0, greatest = 0;
    GPUSCALE_CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GPUSCALE_CUDA_OK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking,
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
  EventTimer() {
    GPUSCALE_CUDA_OK(cudaEventCreate(&start_));
    GPUSCALE_CUDA_OK(cudaEventCreate(&stop_));
  }
  ~EventTimer() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(Stream& s) override { GPUSCALE_CUDA_OK(cudaEventRecord(start_, static_cast<cudaStream_t>(s.native()))); }
  void stop(Stream& s) override {
    const auto stream = static_cast<cudaStream_t>(s.native());
    if (timers_hang()) enqueue_wait_that_never_ends(stream);
    GPUSCALE_CUDA_OK(cudaEventRecord(stop_, stream));
  }
  double elapsed_s(const Deadline& deadline) override {
    poll_until_done([this] { return cudaEventQuery(stop_); }, deadline, "a timed interval");
    float ms = 0;
    GPUSCALE_CUDA_OK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

class CudaGraph final : public Graph {
 public:
  // Captures in thread-local mode: only this thread's calls are recorded, as NCCL expects.
  CudaGraph(Stream& stream, const std::function<void()>& enqueue) {
    const auto s = static_cast<cudaStream_t>(stream.native());
    GPUSCALE_CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      if (cudaStreamEndCapture(s, &partial) == cudaSuccess && partial) cudaGraphDestroy(partial);
      throw;
    }
    GPUSCALE_CUDA_OK(cudaStreamEndCapture(s, &graph_));
    GPUSCALE_CUDA_OK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  ~CudaGraph() override {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  void launch(Stream& stream) override {
    GPUSCALE_CUDA_OK(cudaGraphLaunch(exec_, static_cast<cudaStream_t>(stream.native())));
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) : nccl_log_(), device_(device) {
    GPUSCALE_CUDA_OK(cudaSetDevice(device_));
    GPUSCALE_CUDA_OK(cudaFree(nullptr));  // create the context now, not inside a timed region
    copies_ = std::make_unique<CudaStream>(StreamPriority::normal);
  }
  BackendKind kind() const noexcept override { return BackendKind::cuda; }
  void probe(results::RankEnv& env) override { describe_cuda_device(device_, env); }
  std::unique_ptr<Buffer> allocate(std::size_t bytes) override { return std::make_unique<CudaBuffer>(bytes, &memory_); }
  // cudaMemcpy could block for ever behind a hung device: copy asynchronously and poll instead.
  void upload(Buffer& dst, const void* src, std::size_t bytes, const Deadline& deadline) override {
    GPUSCALE_CUDA_OK(cudaMemcpyAsync(dst.data(), src, bytes, cudaMemcpyHostToDevice, copy_stream()));
    copies_->synchronize(deadline, "a host-to-device copy");
  }
  void download(void* dst, const Buffer& src, std::size_t bytes, const Deadline& deadline) override {
    GPUSCALE_CUDA_OK(cudaMemcpyAsync(dst, src.data(), bytes, cudaMemcpyDeviceToHost, copy_stream()));
    copies_->synchronize(deadline, "a device-to-host copy");
  }
  std::unique_ptr<Stream> create_stream(StreamPriority priority) override {
    return std::make_unique<CudaStream>(priority);
  }
  std::unique_ptr<Timer> create_timer() override { return std::make_unique<EventTimer>(); }
  std::unique_ptr<Graph> capture(Stream& stream, const std::function<void()>& enqueue) override {
    return std::make_unique<CudaGraph>(stream, enqueue);
  }
  std::unique_ptr<Communicator> create_communicator(const World& world, const Deadline& deadline) override {
    return make_nccl_communicator(world, deadline);
  }
  results::NcclPaths communication_paths() const override { return nccl_log_.paths(); }
  std::unique_ptr<Event> create_event() override { return std::make_unique<CudaEvent>(); }
  void make_current() override { GPUSCALE_CUDA_OK(cudaSetDevice(device_)); }
  int device_index() const noexcept override { return device_; }
  void copy_async(void* dst, const void* src, std::size_t bytes, Stream& stream) override {
    GPUSCALE_CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream.native())));
  }
  std::unique_ptr<Buffer> allocate_pinned_host(std::size_t bytes) override {
    return std::make_unique<CudaBuffer>(bytes, nullptr);
  }
  MemoryUsage memory_usage() const noexcept override { return memory_.usage(); }
  void reset_peak_memory() noexcept override { memory_.reset_peak(); }
  MemoryTracker* memory_tracker() noexcept override { return &memory_; }

 private:
  cudaStream_t copy_stream() { return static_cast<cudaStream_t>(copies_->native()); }

  NcclLogCapture nccl_log_;  // first: NCCL must not log anything before it points NCCL at its file
  int device_;
  MemoryTracker memory_;
  std::unique_ptr<CudaStream> copies_;
};

}  // namespace

bool cuda_backend_built() noexcept { return true; }

int cuda_visible_device_count(std::string* why_none) noexcept {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    count = 0;
  }
  if (count == 0 && why_none) {
    try {
      *why_none = status == cudaSuccess ? std::string("cudaGetDeviceCount found 0 devices")
                                        : std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + " (" +
                                              cudaGetErrorString(status) + ")";
    } catch (...) {
    }
  }
  return count;
}

std::string cuda_visible_devices_key() noexcept {
  std::string key;
  const int count = cuda_visible_device_count();
  for (int d = 0; d < count; ++d) {
    char id[32] = {};
    if (cudaDeviceGetPCIBusId(id, sizeof id, d) != cudaSuccess) id[0] = '?';
    key += (d ? "," : "") + std::string(id);
  }
  return key;
}

std::unique_ptr<Backend> make_cuda_backend(int device) {
  return std::make_unique<CudaBackend>(device);
}

}  // namespace gpuscale::harness
