#pragma once
// Internal to harness: the MPI handles behind World, and the one way harness waits on MPI requests.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "harness/Deadline.hpp"
#include "harness/Interrupts.hpp"

namespace gpuscale::harness::detail {

struct MpiWorld {
  MPI_Comm world = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD, errors returned
  MPI_Comm node = MPI_COMM_NULL;   // ranks of this node (shared memory, or the emulated node)
  int rank = 0, size = 1, local_rank = 0, local_size = 1, node_index = 0, node_count = 1;
  bool emulated = false;
  std::string host;
  bool finalize = false;  // whether this session initialised MPI and must finalise it

  // Failure notices (FailureNotices.cpp): their own communicator, so they never match phase traffic.
  MPI_Comm notices = MPI_COMM_NULL;
  std::vector<std::unique_ptr<std::string>> outgoing;  // payloads of sends in flight (must outlive them)
  std::vector<MPI_Request> sends;
  std::vector<char> reported;  // rank 0: which ranks sent a notice or a status
  struct Notice {
    int source = -1, exit_code = 0;
    std::string message;
  };
  std::vector<Notice> received;  // failure notices seen while polling, oldest first
  std::unique_ptr<PeerWatch> watch;  // registered with Interrupts while the World lives
};

// Duplicates the world for notices (by the deadline) and registers the peer watch with Interrupts.
// Collective.
void start_notices(MpiWorld& world, const Deadline& deadline);
// Unregisters the watch and frees the communicator. Local.
void stop_notices(MpiWorld& world) noexcept;

// Polls the request until it completes; throws TimeoutError naming `what` when the deadline passes
// (the request is left pending: the caller is about to end the job).
void wait_request(MPI_Request& request, const Deadline& deadline, std::string_view what);

}  // namespace gpuscale::harness::detail
