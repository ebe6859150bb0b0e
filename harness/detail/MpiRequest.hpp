#pragma once
// Internal to harness: the one owner of a nonblocking MPI operation and of the memory it reads and
// writes. Every MPI_I* call in harness starts its request through one of these.
//
// The rule it keeps: MPI may read or write an operation's buffers until the request completes, so
// memory handed to MPI is never freed while its request is active. A wait that throws (deadline,
// signal, another rank's failure) leaves the request active; the destructor then
//   - cancels it where MPI allows (point-to-point) and tests it until done, for at most kCancel_s;
//   - otherwise (collectives cannot be cancelled) abandons it: the owned memory is leaked on
//     purpose and host buffers stop being freed (mpi_operation_abandoned()), because the error path keeps
//     MPI progressing (notices, the roll call) and the operation may still land in them.
// Main thread only, like every MPI call here.
#include <memory>
#include <string_view>

#include <mpi.h>

#include "harness/Deadline.hpp"
#include "harness/detail/AbandonedMpi.hpp"

namespace gpuscale::harness::detail {

class MpiRequest {
 public:
  enum class Kind { collective, point_to_point };  // whether MPI_Cancel is allowed
  static constexpr double kCancel_s = 0.1;

  // `memory` owns the buffers the operation uses (null when they belong to a host Buffer, which
  // mpi_operation_abandoned() protects). Start the operation with MPI_I*(..., request.handle()).
  explicit MpiRequest(Kind kind, std::shared_ptr<void> memory = nullptr) noexcept;
  ~MpiRequest();
  MpiRequest(MpiRequest&& other) noexcept;
  MpiRequest& operator=(MpiRequest&&) = delete;
  MpiRequest(const MpiRequest&) = delete;
  MpiRequest& operator=(const MpiRequest&) = delete;

  MPI_Request* handle() noexcept { return &request_; }
  bool active() const noexcept { return request_ != MPI_REQUEST_NULL; }

  // Polls until the operation completes, looking at the interrupt flag and peer notices on every
  // poll, the last one included: a signal that arrived during the operation ends the run here.
  // Throws TimeoutError naming `what` and the current activity when the deadline passes first,
  // InterruptedError or PeerFailedError from poll_interrupts(); the request stays owned (see above),
  // and host memory is held from then on (other operations of this rank may still be in flight).
  void wait(const Deadline& deadline, std::string_view what);
  // One MPI_Test; true once complete. Never throws.
  bool test() noexcept;

 private:
  void poll_until_done(const Deadline& deadline, std::string_view what);
  void release() noexcept;

  Kind kind_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::shared_ptr<void> memory_;
};

// MPI_Comm_idup by the deadline, through an MpiRequest: the new handle lands in owned memory.
MPI_Comm duplicate(MPI_Comm comm, const Deadline& deadline, std::string_view what);

}  // namespace gpuscale::harness::detail
