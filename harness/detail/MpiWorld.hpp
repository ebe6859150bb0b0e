#pragma once
// Internal to harness: the MPI handles behind World.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "harness/Deadline.hpp"
#include "harness/Interrupts.hpp"
#include "harness/detail/MpiRequest.hpp"
#include "harness/detail/PeerLiveness.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::harness::detail {

struct MpiWorld {
  MPI_Comm world = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD, errors returned
  MPI_Comm node = MPI_COMM_NULL;   // ranks of this node (shared memory, or the emulated node)
  int rank = 0, size = 1, local_rank = 0, local_size = 1, node_index = 0, node_count = 1;
  results::Emulation emulation;  // ranks_per_node 0: nodes are the machine's shared-memory groups
  std::string emulation_problem;  // why this rank's emulation variables were refused; "" when they parsed
  std::string host;
  bool finalize = false;  // whether this session initialised MPI and must finalise it

  // Failure notices (FailureNotices.cpp): their own communicator, so they never match phase traffic.
  MPI_Comm notices = MPI_COMM_NULL;
  std::vector<MpiRequest> sends;  // notices and statuses in flight, each owning its payload
  std::vector<char> reported;  // rank 0: which ranks sent a notice or a status
  struct Notice {
    int source = -1, exit_code = 0;
    int cause = -1;  // the rank the failure is about: the source itself, or a rank it found silent
    std::string message;
  };
  std::vector<Notice> received;  // failure notices seen while polling, oldest first
  std::unique_ptr<PeerWatch> watch;  // registered with Interrupts while the World lives
  struct Peer {
    std::string host;
    int node = -1;  // its emulated node, -1 on a real launch
    ProcessId process;  // zero where this rank cannot see the peer's process (another host)
  };
  std::vector<Peer> peers;  // index = rank, this rank included
  // End marks (EndMarks.cpp): a byte per rank of this machine, in memory the machine's ranks share,
  // that a rank sets just before it ends its process on purpose (MPI_Abort, the watchdog): a peer
  // that then finds its process gone knows it did not die.
  MPI_Comm machine = MPI_COMM_NULL;  // the ranks of this machine (shared memory, whatever the emulation)
  MPI_Win end_marks = MPI_WIN_NULL;
  std::vector<unsigned char*> end_mark;  // index = world rank; nullptr for ranks of other machines
  // Heartbeats (World::wait_for_root): while beat_interval_s > 0, this rank's polls tell every other
  // rank it is alive, at most once per interval; heard_alive[r]: when rank r's last one arrived.
  double beat_interval_s = 0;
  std::chrono::steady_clock::time_point next_beat{};
  std::vector<std::chrono::steady_clock::time_point> heard_alive;
  // The launcher's teardown (FailureNotices.cpp): alive_at_signal[r], whether rank r's process was
  // alive at this rank's first look after its own SIGTERM or SIGINT; empty until that look.
  std::mutex signal_look_mutex;
  std::vector<char> alive_at_signal;
};

// Duplicates the world for notices, learns every rank's host and process (by the deadline), and
// registers the peer watch with Interrupts. Collective.
void start_notices(MpiWorld& world, const Deadline& deadline);
// Unregisters the watch and frees the communicator. Local.
void stop_notices(MpiWorld& world) noexcept;
// Creates this machine's end marks and registers this rank's with the Watchdog (set_end_mark).
// Collective (the allocation cannot poll: a BlockingCall against the deadline).
void start_end_marks(MpiWorld& world, const Deadline& deadline);
// Unregisters the mark and frees the shared memory. Collective: every rank of the machine, as it ends
// normally.
void stop_end_marks(MpiWorld& world) noexcept;
// Whether `rank` (of this machine) set its end mark. Any thread.
bool ended_on_purpose(const MpiWorld& world, int rank) noexcept;
// After this rank's own SIGTERM or SIGINT, notes once which peers' processes are alive: the look
// World::dead_peers_to_name takes each time, so the Watchdog takes it within kLivenessPoll_s.
void look_after_signal(MpiWorld& world) noexcept;
// Whether `rank`, gone now, was killed in the launcher's teardown rather than dead: its process was
// alive at that look. Any thread.
bool killed_in_teardown(MpiWorld& world, int rank) noexcept;

}  // namespace gpuscale::harness::detail
