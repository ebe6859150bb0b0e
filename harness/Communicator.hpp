#pragma once
// A communicator over the ranks of a job: NCCL on GPUs, MPI on host memory for the cpu backend.
// Every operation is collective over the communicator's ranks (send_recv: over the two peers), takes
// buffers from the same backend, and is enqueued on `stream` (the cpu backend runs it at once).
// Counts are elements, not bytes. Errors throw LibraryError; timeouts abort, then throw TimeoutError.
// A communicator keeps no timeout: every call that may wait (the host call of an operation, a group's
// end, a transport that completes the operation before it returns) waits until the `deadline` its
// caller passes, from the caller's phase.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "harness/DataType.hpp"
#include "harness/Deadline.hpp"

namespace gpuscale::harness {

class Buffer;
class MemoryTracker;
class Stream;

// How a communicator made by split() asks its transport to run. Zero: the transport's own choice.
struct CommConfig {
  int min_ctas = 0;  // NCCL: ncclConfig_t.minCTAs (thread blocks, one per channel); ignored by MPI
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  Communicator() = default;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  virtual int rank() const noexcept = 0;
  virtual int size() const noexcept = 0;
  virtual std::string_view transport() const noexcept = 0;  // "nccl" or "mpi"

  // recv = op over ranks of send, `count` elements on every rank.
  virtual void all_reduce(const void* send, void* recv, std::size_t count, DataType type, RedOp op,
                          Stream& stream, const Deadline& deadline) = 0;
  // recv (size() * count elements) = every rank's send (count elements), in rank order.
  virtual void all_gather(const void* send, void* recv, std::size_t count, DataType type, Stream& stream,
                          const Deadline& deadline) = 0;
  // recv (count elements) = this rank's block of op over ranks of send (size() * count elements).
  virtual void reduce_scatter(const void* send, void* recv, std::size_t count, DataType type, RedOp op,
                              Stream& stream, const Deadline& deadline) = 0;
  // recv on every rank = root's send. send is read on root only.
  virtual void broadcast(const void* send, void* recv, std::size_t count, DataType type, int root,
                         Stream& stream, const Deadline& deadline) = 0;
  // recv on root = op over ranks of send; recv is untouched elsewhere.
  virtual void reduce(const void* send, void* recv, std::size_t count, DataType type, RedOp op, int root,
                      Stream& stream, const Deadline& deadline) = 0;
  // Block j of send (count elements each) goes to rank j; block i of recv comes from rank i.
  virtual void all_to_all(const void* send, void* recv, std::size_t count, DataType type, Stream& stream,
                          const Deadline& deadline) = 0;
  // Sends `count` elements to send_peer and receives as many from recv_peer, concurrently.
  virtual void send_recv(const void* send, int send_peer, void* recv, int recv_peer, std::size_t count,
                         DataType type, Stream& stream, const Deadline& deadline) = 0;

  // Operations between group_start and group_end are fused into one launch (nccl-tests' -m).
  virtual void group_start() = 0;
  virtual void group_end(const Deadline& deadline) = 0;

  // Blocks until everything enqueued on `stream` is done; polls the communicator's asynchronous error
  // state. On error or when the deadline passes: abort the communicator, then throw (`what` names the op).
  virtual void wait(Stream& stream, const Deadline& deadline, std::string_view what) = 0;

  // Collective over this communicator: ranks with the same color form a new communicator, ordered
  // by key. color < 0: this rank joins none and gets nullptr.
  virtual std::unique_ptr<Communicator> split(int color, int key, const Deadline& deadline,
                                              const CommConfig& config = {}) = 0;

  // Device memory that this communicator's collectives reach without staging copies: NCCL allocates
  // it (ncclMemAlloc) and registers it as a symmetric window, which NCCL serves with its symmetric
  // kernels where the ranks share NVLink. Collective: every rank asks for the same bytes, in the same
  // order. nullptr where the transport has no such memory (MPI): allocate from the backend instead.
  // The buffer must die before the communicator; `tracker` (may be null) counts its bytes.
  virtual std::unique_ptr<Buffer> allocate_window(std::size_t bytes, MemoryTracker* tracker,
                                                  const Deadline& deadline) = 0;

  // Ends every outstanding operation; the communicator is unusable afterwards. Never throws.
  virtual void abort() noexcept = 0;
};

}  // namespace gpuscale::harness
