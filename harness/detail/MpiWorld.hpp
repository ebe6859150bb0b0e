#pragma once
// Internal to harness: the MPI handles behind World, and the one way harness waits on MPI requests.
#include <string>
#include <string_view>

#include <mpi.h>

#include "harness/Deadline.hpp"

namespace gpuscale::harness::detail {

struct MpiWorld {
  MPI_Comm world = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD, errors returned
  MPI_Comm node = MPI_COMM_NULL;   // ranks of this node (shared memory, or the emulated node)
  int rank = 0, size = 1, local_rank = 0, local_size = 1, node_index = 0, node_count = 1;
  bool emulated = false;
  std::string host;
  bool finalize = false;  // whether this session initialised MPI and must finalise it
};

// Polls the request until it completes; throws TimeoutError naming `what` when the deadline passes
// (the request is left pending: the caller is about to end the job).
void wait_request(MPI_Request& request, const Deadline& deadline, std::string_view what);

}  // namespace gpuscale::harness::detail
