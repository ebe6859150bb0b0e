#pragma once
// NCCL communicators, always nonblocking (config.blocking = 0) so that every wait can time out and
// abort instead of hanging: init, split, every collective and group end are settled by polling
// ncclCommGetAsyncError against a deadline.
#include <memory>

#include "harness/Communicator.hpp"

namespace gpuscale::harness {

class World;

// Collective over the world: rank 0 makes the unique id, MPI broadcasts it, every rank joins with
// ncclCommInitRankConfig on the current CUDA device, by `deadline`. Later waits take their callers'.
std::unique_ptr<Communicator> make_nccl_communicator(const World& world, const Deadline& deadline);

}  // namespace gpuscale::harness
