#include "harness/CpuBackend.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"
#include "harness/Interrupts.hpp"
#include "harness/MemoryTracker.hpp"
#include "harness/MpiCommunicator.hpp"
#include "harness/detail/AbandonedMpi.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {
namespace {

class HostBuffer final : public Buffer {
 public:
  HostBuffer(std::size_t bytes, MemoryTracker* tracker) : bytes_(bytes), tracker_(tracker) {
    // 64-byte alignment like device allocations give, so vectorised kernels behave alike.
    data_ = std::aligned_alloc(64, ((bytes + 63) / 64) * 64 + 64);
    if (!data_) {
      throw OutOfMemoryError("host", "ENOMEM", "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    }
    if (tracker_) tracker_->allocated(bytes_);
  }
  ~HostBuffer() override {
    // An abandoned MPI operation may still write here (detail/MpiRequest.hpp): keep the memory.
    if (!detail::mpi_operation_abandoned()) std::free(data_);
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

class HostStream final : public Stream {
 public:
  // Host work is done when its call returns; the wait still polls, as every wait does, so that a
  // signal, a peer's failure and this rank's heartbeats (HeartbeatScope) are seen here too.
  // The hang seam (FaultInjection.hpp: wait_if_hung) stops every wait for device work, as a GPU that
  // stopped would: this one, the timers', the events' and the communicators' operations.
  void synchronize(const Deadline& deadline, std::string_view what) override {
    wait_if_hung(deadline, what);
    poll_interrupts();
  }
  void* native() noexcept override { return nullptr; }
};

class HostTimer final : public Timer {
 public:
  void start(Stream&) override { start_ = Clock::now(); }
  void stop(Stream&) override { stop_ = Clock::now(); }
  double elapsed_s(const Deadline& deadline) override {
    wait_if_hung(deadline, "a timed interval");
    return std::chrono::duration<double>(stop_ - start_).count();
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_, stop_;
};

class HostGraph final : public Graph {
 public:
  explicit HostGraph(std::function<void()> work) : work_(std::move(work)) {}
  void launch(Stream&) override { work_(); }

 private:
  std::function<void()> work_;
};

// Work on the cpu backend is done when enqueued: an event is the time it was recorded.
class HostEvent final : public Event {
 public:
  void record(Stream&) override { at_ = std::chrono::steady_clock::now(); }
  void make_wait(Stream&) override {}
  double seconds_since(Event& start, const Deadline& deadline) override {
    wait_if_hung(deadline, "an event");
    return std::chrono::duration<double>(at_ - static_cast<HostEvent&>(start).at_).count();
  }

 private:
  std::chrono::steady_clock::time_point at_{};
};

class CpuBackend final : public Backend {
 public:
  BackendKind kind() const noexcept override { return BackendKind::cpu; }
  void probe(results::RankEnv& env) override { env.backend = "cpu"; }
  std::unique_ptr<Buffer> allocate(std::size_t bytes) override { return std::make_unique<HostBuffer>(bytes, &memory_); }
  void upload(Buffer& dst, const void* src, std::size_t bytes, const Deadline&) override {
    std::memcpy(dst.data(), src, bytes);
  }
  void download(void* dst, const Buffer& src, std::size_t bytes, const Deadline&) override {
    std::memcpy(dst, src.data(), bytes);
  }
  std::unique_ptr<Stream> create_stream(StreamPriority) override { return std::make_unique<HostStream>(); }
  std::unique_ptr<Timer> create_timer() override { return std::make_unique<HostTimer>(); }
  std::unique_ptr<Graph> capture(Stream&, const std::function<void()>& enqueue) override {
    return std::make_unique<HostGraph>(enqueue);
  }
  std::unique_ptr<Communicator> create_communicator(const World& world, const Deadline& deadline) override {
    return make_mpi_communicator(world, deadline);
  }
  std::unique_ptr<Event> create_event() override { return std::make_unique<HostEvent>(); }
  void copy_async(void* dst, const void* src, std::size_t bytes, Stream&) override { std::memmove(dst, src, bytes); }
  std::unique_ptr<Buffer> allocate_pinned_host(std::size_t bytes) override {
    return std::make_unique<HostBuffer>(bytes, nullptr);
  }
  MemoryUsage memory_usage() const noexcept override { return memory_.usage(); }
  void reset_peak_memory() noexcept override { memory_.reset_peak(); }
  MemoryTracker* memory_tracker() noexcept override { return &memory_; }

 private:
  MemoryTracker memory_;
};

}  // namespace

results::NcclPaths Backend::communication_paths() const {
  results::NcclPaths p;
  p.unavailable_reason = "no NCCL on the " + std::string(to_string(kind())) + " backend";
  return p;
}

std::string_view to_string(BackendKind kind) { return kind == BackendKind::cuda ? "cuda" : "cpu"; }

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace gpuscale::harness
