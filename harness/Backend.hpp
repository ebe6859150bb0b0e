#pragma once
// The device a rank works on: cuda (one GPU per rank) or cpu (host memory, BLAS, MPI). Phases are
// written once against this interface and never branch on the backend.
#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>

#include "harness/Communicator.hpp"
#include "harness/Deadline.hpp"

namespace gpuscale::results {
struct RankEnv;
struct NcclPaths;
}

namespace gpuscale::harness {

class MemoryTracker;
class World;

enum class BackendKind { cpu, cuda };
std::string_view to_string(BackendKind kind);

// Owner of `bytes` of device memory (host memory on the cpu backend). Not copyable.
class Buffer {
 public:
  virtual ~Buffer() = default;
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  virtual void* data() noexcept = 0;
  virtual const void* data() const noexcept = 0;
  virtual std::size_t bytes() const noexcept = 0;
};

// An ordered queue of device work (a CUDA stream; on the cpu backend work runs at once).
class Stream {
 public:
  virtual ~Stream() = default;
  Stream() = default;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  // Throws TimeoutError naming `what` if the work is not done by the deadline.
  virtual void synchronize(const Deadline& deadline, std::string_view what) = 0;
  virtual void* native() noexcept = 0;  // cudaStream_t, or nullptr
};

// Times one interval of work on a stream with device events (host clock on the cpu backend).
class Timer {
 public:
  virtual ~Timer() = default;
  virtual void start(Stream& stream) = 0;
  virtual void stop(Stream& stream) = 0;
  // Seconds between start and stop; waits for the stop event until `deadline` (then TimeoutError).
  virtual double elapsed_s(const Deadline& deadline) = 0;
};

// Stream work recorded once and replayed by launch (a CUDA graph). On the cpu backend launch runs
// the recorded host work again, so code written for graphs runs unchanged there.
class Graph {
 public:
  virtual ~Graph() = default;
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  // Enqueues one replay of the recorded work on `stream`.
  virtual void launch(Stream& stream) = 0;
};

enum class StreamPriority { normal, high };

// A point in a stream's work (a CUDA event; a host timestamp on the cpu backend, where work is done
// when it is enqueued). Other streams wait for it on the device, without a host sync.
class Event {
 public:
  virtual ~Event() = default;
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  virtual void record(Stream& stream) = 0;
  // Work enqueued on `stream` after this call starts once the recorded work is done.
  virtual void make_wait(Stream& stream) = 0;
  // Seconds from `start` to this event, both recorded; waits for this one until `deadline`.
  virtual double seconds_since(Event& start, const Deadline& deadline) = 0;
};

// Bytes held in buffers that this backend allocated (library workspaces that it did not allocate
// are not counted), and their high-water mark since the last reset.
struct MemoryUsage {
  std::size_t allocated_bytes = 0;
  std::size_t peak_bytes = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  virtual BackendKind kind() const noexcept = 0;
  // Sets env.backend and, on a GPU, env.visible_gpu_count and env.gpu's identity (name, UUID, PCI bus,
  // compute capability, SMs, memory, NUMA node) (local: no communication). The env phase adds the
  // rest: probes/CudaProbe.hpp.
  virtual void probe(results::RankEnv& env) = 0;
  // Throws OutOfMemoryError when the device cannot hold `bytes`.
  virtual std::unique_ptr<Buffer> allocate(std::size_t bytes) = 0;
  // Synchronous copies between host memory and a buffer; each waits until `deadline`. The backend
  // keeps no timeout of its own: every wait's deadline comes from its caller's phase.
  virtual void upload(Buffer& dst, const void* src, std::size_t bytes, const Deadline& deadline) = 0;
  virtual void download(void* dst, const Buffer& src, std::size_t bytes, const Deadline& deadline) = 0;
  virtual std::unique_ptr<Stream> create_stream(StreamPriority priority) = 0;
  virtual std::unique_ptr<Timer> create_timer() = 0;
  // Records what `enqueue` puts on `stream` (CUDA stream capture: nothing runs now) into a graph.
  // The cpu backend keeps `enqueue` and calls it on every launch.
  virtual std::unique_ptr<Graph> capture(Stream& stream, const std::function<void()>& enqueue) = 0;
  // Collective over the world: a communicator of every rank (NCCL on cuda, MPI on cpu). `deadline`
  // bounds its creation; its operations take their own (Communicator.hpp).
  virtual std::unique_ptr<Communicator> create_communicator(const World& world, const Deadline& deadline) = 0;
  // How the process's first communicator connected (NCCL's transports, from its log); captured stays
  // false where there is nothing to tell (the cpu backend). Local.
  virtual results::NcclPaths communication_paths() const;

  // Training additions. Events order work across streams.
  virtual std::unique_ptr<Event> create_event() = 0;
  // Makes this backend's device current for the calling thread (cudaSetDevice); a process that
  // drives several devices calls it before working on each. No-op on the cpu backend.
  virtual void make_current() {}
  // CUDA device index (-1 on the cpu backend).
  virtual int device_index() const noexcept { return -1; }
  // Asynchronous copy on `stream` between any memory of this process: device, peer device, pinned
  // host (cudaMemcpyDefault). memcpy on the cpu backend.
  virtual void copy_async(void* dst, const void* src, std::size_t bytes, Stream& stream) = 0;
  // Page-locked host memory (plain host memory on the cpu backend), for host-to-device copies.
  virtual std::unique_ptr<Buffer> allocate_pinned_host(std::size_t bytes) = 0;
  virtual MemoryUsage memory_usage() const noexcept = 0;
  virtual void reset_peak_memory() noexcept = 0;
  // The counter behind memory_usage(), for device memory that another owner allocates for this
  // backend's device (a communicator's window, Communicator::allocate_window).
  virtual MemoryTracker* memory_tracker() noexcept = 0;
};

}  // namespace gpuscale::harness
