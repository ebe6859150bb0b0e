#include "harness/detail/MpiRequest.hpp"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "harness/Activity.hpp"
#include "harness/Interrupts.hpp"
#include "harness/LibraryCall.hpp"

namespace gpuscale::harness::detail {
namespace {
// Read by host buffers' destructors, which may run on any thread.
std::atomic<bool> abandoned{false};
}  // namespace

void note_mpi_operation_abandoned() noexcept { abandoned.store(true); }
bool mpi_operation_abandoned() noexcept { return abandoned.load(); }

MpiRequest::MpiRequest(Kind kind, std::shared_ptr<void> memory) noexcept : kind_(kind), memory_(std::move(memory)) {}

MpiRequest::MpiRequest(MpiRequest&& other) noexcept
    : kind_(other.kind_), request_(other.request_), memory_(std::move(other.memory_)) {
  other.request_ = MPI_REQUEST_NULL;
}

MpiRequest::~MpiRequest() { release(); }

bool MpiRequest::test() noexcept {
  if (request_ == MPI_REQUEST_NULL) return true;
  int done = 0;
  if (MPI_Test(&request_, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
  return done != 0;
}

void MpiRequest::wait(const Deadline& deadline, std::string_view what) {
  try {
    poll_until_done(deadline, what);
  } catch (...) {
    // This rank is on its error path, and other operations of its own (a comm stream's bucket
    // allreduce) may still be in flight while the unwinding frees their buffers: keep host memory.
    note_mpi_operation_abandoned();
    throw;
  }
}

void MpiRequest::poll_until_done(const Deadline& deadline, std::string_view what) {
  for (int polls = 0;; ++polls) {
    int done = request_ == MPI_REQUEST_NULL ? 1 : 0;
    if (!done) GPUSCALE_MPI_OK(MPI_Test(&request_, &done, MPI_STATUS_IGNORE));
    poll_interrupts();
    if (done) return;
    if (deadline.expired()) {
      throw TimeoutError(error_location() + " timed out in " + std::string(what) +
                         ": another rank did not take part (stalled, dead, or in another phase) (" +
                         describe(current_activity()) + ")");
    }
    // Spin briefly for latency, then back off so a waiting rank does not burn a core.
    if (polls > 1000) std::this_thread::sleep_for(std::chrono::microseconds(polls > 100000 ? 1000 : 20));
  }
}

void MpiRequest::release() noexcept {
  if (request_ == MPI_REQUEST_NULL) return;
  if (kind_ == Kind::point_to_point && MPI_Cancel(&request_) == MPI_SUCCESS) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(kCancel_s);
    while (!test() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    if (request_ == MPI_REQUEST_NULL) return;  // cancelled or completed: MPI let go of the memory
  }
  // MPI may still use the memory: keep it for the rest of the process, and every host buffer too.
  note_mpi_operation_abandoned();
  new std::shared_ptr<void>(std::move(memory_));  // deliberately leaked
  request_ = MPI_REQUEST_NULL;                     // the handle too: MPI still owns the operation
}

MPI_Comm duplicate(MPI_Comm comm, const Deadline& deadline, std::string_view what) {
  auto out = std::make_shared<MPI_Comm>(MPI_COMM_NULL);
  MpiRequest request(MpiRequest::Kind::collective, out);
  GPUSCALE_MPI_OK(MPI_Comm_idup(comm, out.get(), request.handle()));
  request.wait(deadline, what);
  return *out;
}

}  // namespace gpuscale::harness::detail
