#pragma once
// The MPI session: the one owner of MPI_Init/MPI_Finalize, and the process model's facts (rank,
// local rank, node). mpi.h stays inside harness: this header does not include it.
//
// Every method marked "collective" must be called by every rank of the world, in the same order.
// Every wait has a deadline: collectives here poll nonblocking MPI requests and throw TimeoutError.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/Deadline.hpp"
#include "harness/Watchdog.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::harness {

namespace detail {
struct MpiWorld;
}

// A rank that did not answer a roll call (World::roll_call), and what this rank could see of it.
struct SilentRank {
  enum class Seen { no_answer, stopped, gone };
  int rank = -1;
  std::string host;
  Seen seen = Seen::no_answer;
  int node = -1;  // its emulated node (GPUSCALE_TEST_RANKS_PER_NODE), -1 on a real launch
};
// "rank 1 (host h) died (its process is gone)", "... did not respond within 2 s (stalled or dead)";
// "(host h node 1)" on emulated nodes.
std::string describe(const SilentRank& rank, double grace_s);

// The rank the launcher gave this process (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID,
// the first one set), readable before MPI starts; -1 without a launcher or when it is not a number.
int launcher_rank();

class World {
 public:
  // Initialises MPI (thread level FUNNELED), switches MPI_COMM_WORLD to return errors, and works out
  // local rank and node from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). Collective.
  // For tests only: GPUSCALE_TEST_RANKS_PER_NODE=K groups ranks into emulated nodes of K ranks (see
  // emulation()).
  // Every rank must have joined by `deadline`: the start-up collectives poll nonblocking requests
  // (TimeoutError naming what was awaited), and MPI_Init and the splits, which cannot poll, are
  // BlockingCalls (the Watchdog ends the process with one line and exit 3).
  World(int* argc, char*** argv, const Deadline& deadline = Deadline::never());
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const noexcept;
  int size() const noexcept;
  int local_rank() const noexcept;  // index among the ranks of this node
  int local_size() const noexcept;
  int node() const noexcept;        // 0..node_count-1, in order of each node's lowest world rank
  int node_count() const noexcept;
  // The test layout (GPUSCALE_TEST_RANKS_PER_NODE, GPUSCALE_TEST_SHARE_GPU: results/world/Emulation.hpp);
  // nullopt on a real launch. In the shared-GPU mode the World has set NCCL_HOSTID to the emulated node.
  std::optional<results::Emulation> emulation() const;
  // This rank's refusal of its emulation variables (malformed), "" when they parsed. The World then
  // runs without emulation, and the job refuses its start as every rank's usage error is refused
  // (launch/CommandAgreement.hpp), so that a rank alone with a bad value is named, not silent.
  const std::string& emulation_problem() const noexcept;
  const std::string& host() const noexcept;
  std::string mpi_library_version() const;  // first line of MPI_Get_library_version
  std::string mpi_standard_version() const;  // "3.1"

  // Collective. Throws TimeoutError when the deadline passes first.
  void barrier(const Deadline& deadline) const;
  // Collective: rank 0 receives every rank's string (index = rank); other ranks get an empty vector.
  std::vector<std::string> gather_to_root(const std::string& mine, const Deadline& deadline) const;
  // Collective: every rank returns rank 0's value.
  std::string broadcast_from_root(const std::string& value, const Deadline& deadline) const;
  // Collective over this rank's node (shared memory, or the emulated node): every rank of the node
  // returns every node rank's string (index = local rank).
  std::vector<std::string> node_all_gather(const std::string& mine, const Deadline& deadline) const;
  void broadcast_bytes(void* data, std::size_t bytes, int root, const Deadline& deadline) const;
  // Collective reductions of one double.
  double max_over_ranks(double value, const Deadline& deadline) const;
  double min_over_ranks(double value, const Deadline& deadline) const;
  double sum_over_ranks(double value, const Deadline& deadline) const;
  // Collective, element-wise over equally long vectors (e.g. per-iteration times: the slowest rank's).
  std::vector<double> max_over_ranks(const std::vector<double>& values, const Deadline& deadline) const;

  // Work that `root` does alone while the others wait (DP-style training: one process drives the
  // node's GPUs). Collective: root calls it when done, the others when they have nothing else to do.
  // A wait for work of unknown length has no fixed deadline: the others fail (TimeoutError) only once
  // root has been silent for silence_s, and root, inside a HeartbeatScope, tells them it is alive from
  // each of its polling waits (which its own deadlines bound). Root itself waits up to silence_s.
  void wait_for_root(int root, double silence_s, std::string_view what) const;

  // The error path (FailureNotices.cpp): how a failing rank tells the others, so that none is left
  // waiting for it, and how rank 0 (and its deputy, for rank 0) learns which ranks are stalled or dead. All local and noexcept;
  // notices travel on a communicator of their own, and every polling wait looks for them
  // (Interrupts.hpp), turning another rank's failure into PeerFailedError within milliseconds.
  // Tells every other rank that this rank failed, with its exit code and one-line message; `cause`,
  // where it is another rank, names the rank this one found silent (a roll call) as the failure.
  void announce_failure(int exit_code, const std::string& message, int cause = -1) const noexcept;
  // Tells `destination` that this rank is alive in the error path, and what it was doing.
  void report_status(int destination, const std::string& activity) const noexcept;
  // Waits up to grace_s for a notice or status from each of `ranks` and returns those that sent
  // neither. Returns early once every one has answered or is seen dead or stopped (ranks on this
  // host; the others can only be "did not respond").
  std::vector<SilentRank> roll_call(const std::vector<int>& ranks, double grace_s) const noexcept;
  // The PID of `rank`'s process where this rank can see it (same host, alive at start-up); else 0.
  long peer_pid(int rank) const noexcept;
  // The peers on this host whose processes are gone and that this rank must name: rank 0 names the
  // dead of its host; on a host without a live rank 0, its lowest live rank does (the deputy, for
  // rank 0). nullopt when none, and once a peer of this host ended the job on purpose (its end mark:
  // World::abort and the Watchdog set it), since the others then go in the launcher's teardown; nor
  // a peer alive at this rank's first look after its own SIGTERM or SIGINT, which the launcher's
  // kill sequence ended (detail::killed_in_teardown). Local, reads /proc and shared memory only (no
  // MPI call): safe on any thread. While the World lives, the Watchdog asks it every kLivenessPoll_s
  // (Watchdog.hpp).
  std::optional<PeerDeath> dead_peers_to_name() const noexcept;
  // Keeps MPI progressing for `seconds` so that notices leave before this rank aborts.
  void progress_notices(double seconds) const noexcept;

  // Ends every rank of the job with this exit code. Last resort: never returns.
  [[noreturn]] void abort(int exit_code) const noexcept;

  detail::MpiWorld& mpi() const noexcept { return *mpi_; }

 private:
  std::unique_ptr<detail::MpiWorld> mpi_;
};

// While it lives, this rank's polling waits (Interrupts.hpp) tell every other rank, at most once per
// interval_s, that it is alive: what World::wait_for_root listens for. Local.
class HeartbeatScope {
 public:
  HeartbeatScope(const World& world, double interval_s) noexcept;
  ~HeartbeatScope();
  HeartbeatScope(const HeartbeatScope&) = delete;
  HeartbeatScope& operator=(const HeartbeatScope&) = delete;

 private:
  detail::MpiWorld& m_;
};

}  // namespace gpuscale::harness
