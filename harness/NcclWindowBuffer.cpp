#include "harness/NcclWindowBuffer.hpp"

#include <cstdio>
#include <exception>

#include "harness/Error.hpp"
#include "harness/LibraryCall.hpp"
#include "harness/MemoryTracker.hpp"
#include "harness/Watchdog.hpp"

namespace gpuscale::harness {
namespace {

class NcclWindowBuffer final : public Buffer {
 public:
  NcclWindowBuffer(ncclComm_t comm, std::size_t bytes, MemoryTracker* tracker, const Deadline& deadline)
      : comm_(comm), bytes_(bytes), tracker_(tracker) {
    GPUSCALE_NCCL_OK(ncclMemAlloc(&data_, bytes_));
    if (tracker_) tracker_->allocated(bytes_);
    ncclResult_t rc = ncclSuccess;
    {
      const BlockingCall guard(deadline, "ncclCommWindowRegister");
      rc = ncclCommWindowRegister(comm_, data_, bytes_, &window_, NCCL_WIN_COLL_SYMMETRIC);
    }
    if (rc != ncclSuccess) {
      release_memory();
      GPUSCALE_NCCL_OK(rc);
    }
  }

  ~NcclWindowBuffer() override {
    // Unwinding from an error: the peers may never deregister theirs, and the communicator is about to
    // be aborted, which releases the window; the memory is left to the process's end, not a hang.
    if (std::uncaught_exceptions() > 0) return;
    const ncclResult_t rc = ncclCommWindowDeregister(comm_, window_);
    if (rc != ncclSuccess)
      std::fprintf(stderr, "%s ncclCommWindowDeregister failed: %s\n", error_location().c_str(), nccl_result_name(rc));
    release_memory();
  }

  void* data() noexcept override { return data_; }
  const void* data() const noexcept override { return data_; }
  std::size_t bytes() const noexcept override { return bytes_; }

 private:
  void release_memory() noexcept {
    if (ncclMemFree(data_) != ncclSuccess) std::fprintf(stderr, "%s ncclMemFree failed\n", error_location().c_str());
    if (tracker_) tracker_->freed(bytes_);
    data_ = nullptr;
  }

  ncclComm_t comm_;
  std::size_t bytes_;
  MemoryTracker* tracker_;
  void* data_ = nullptr;
  ncclWindow_t window_ = nullptr;
};

}  // namespace

std::unique_ptr<Buffer> make_nccl_window_buffer(ncclComm_t comm, std::size_t bytes, MemoryTracker* tracker,
                                                const Deadline& deadline) {
  return std::make_unique<NcclWindowBuffer>(comm, bytes, tracker, deadline);
}

}  // namespace gpuscale::harness
