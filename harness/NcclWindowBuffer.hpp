#pragma once
// Memory from ncclMemAlloc registered as a symmetric window of one communicator (see
// Communicator::allocate_window): NcclCommunicator's window buffers. Freed before the communicator:
// the owner's order guarantees it. Only where NCCL is built.
#include <cstddef>
#include <memory>

#include <nccl.h>

#include "harness/Backend.hpp"
#include "harness/Deadline.hpp"

namespace gpuscale::harness {

class MemoryTracker;

// Allocates `bytes` with ncclMemAlloc and registers them on `comm` (NCCL_WIN_COLL_SYMMETRIC), the
// registration bounded by `deadline`; throws the NCCL LibraryError on failure, with the memory released.
std::unique_ptr<Buffer> make_nccl_window_buffer(ncclComm_t comm, std::size_t bytes, MemoryTracker* tracker,
                                                const Deadline& deadline);

}  // namespace gpuscale::harness
