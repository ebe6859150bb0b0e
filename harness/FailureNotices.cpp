// World's error path: failure notices between ranks and rank 0's roll call (see World.hpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "harness/Activity.hpp"
#include "harness/Interrupts.hpp"
#include "harness/LibraryCall.hpp"
#include "harness/CauseNotice.hpp"
#include "harness/World.hpp"
#include "harness/detail/MpiWorld.hpp"

namespace gpuscale::harness {
namespace {

constexpr int kFailureTag = 101;  // payload: int exit code, int cause rank, then the message
constexpr int kStatusTag = 102;   // payload: the sender's activity
constexpr int kAliveTag = 103;    // no payload: a heartbeat (World::wait_for_root)

using Clock = std::chrono::steady_clock;

// Receives the message that MPI_Iprobe found. Returns false if MPI fails.
bool receive(detail::MpiWorld& m, const MPI_Status& probed, std::string& payload) {
  int bytes = 0;
  if (MPI_Get_count(&probed, MPI_CHAR, &bytes) != MPI_SUCCESS || bytes < 0) return false;
  payload.assign(static_cast<std::size_t>(bytes), '\0');
  return MPI_Recv(payload.data(), bytes, MPI_CHAR, probed.MPI_SOURCE, probed.MPI_TAG, m.notices,
                  MPI_STATUS_IGNORE) == MPI_SUCCESS;
}

// Takes one waiting notice or status off the wire; false when none is waiting.
bool take_one(detail::MpiWorld& m) {
  if (m.notices == MPI_COMM_NULL) return false;
  int flag = 0;
  MPI_Status status;
  if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m.notices, &flag, &status) != MPI_SUCCESS || !flag) return false;
  std::string payload;
  if (!receive(m, status, payload)) return false;
  const bool known = status.MPI_SOURCE >= 0 && status.MPI_SOURCE < static_cast<int>(m.reported.size());
  // A heartbeat is no answer to a roll call: it may have left long before the sender stalled.
  if (known && status.MPI_TAG == kAliveTag) m.heard_alive[static_cast<std::size_t>(status.MPI_SOURCE)] = Clock::now();
  else if (known) m.reported[static_cast<std::size_t>(status.MPI_SOURCE)] = 1;
  if (status.MPI_TAG == kFailureTag && payload.size() >= 2 * sizeof(int)) {
    detail::MpiWorld::Notice notice;
    notice.source = status.MPI_SOURCE;
    std::memcpy(&notice.exit_code, payload.data(), sizeof(int));
    std::memcpy(&notice.cause, payload.data() + sizeof(int), sizeof(int));
    if (notice.cause < 0 || notice.cause >= m.size) notice.cause = notice.source;
    notice.message = payload.substr(2 * sizeof(int));
    m.received.push_back(std::move(notice));
  }
  return true;
}

void send(detail::MpiWorld& m, std::string payload, int destination, int tag) noexcept;

// A heartbeat to every other rank when one is due (HeartbeatScope).
void beat_if_due(detail::MpiWorld& m) noexcept {
  if (m.beat_interval_s <= 0 || m.notices == MPI_COMM_NULL || Clock::now() < m.next_beat) return;
  m.next_beat = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(m.beat_interval_s));
  // Beats must not pile up: once every send so far has left, their requests go.
  if (std::all_of(m.sends.begin(), m.sends.end(), [](detail::MpiRequest& r) { return r.test(); })) m.sends.clear();
  for (int r = 0; r < m.size; ++r)
    if (r != m.rank) send(m, std::string(), r, kAliveTag);
}

class NoticeWatch final : public PeerWatch {
 public:
  explicit NoticeWatch(detail::MpiWorld& m) : m_(m) {}
  bool notice_pending() noexcept override {
    beat_if_due(m_);
    while (take_one(m_)) {
    }
    return !m_.received.empty();
  }
  int notice_exit_code() const noexcept override { return first().exit_code; }
  [[noreturn]] void throw_notice() override {
    const auto& n = first();
    throw PeerFailedError(n.cause, static_cast<ExitCode>(n.exit_code), n.message, n.cause != n.source);
  }

 private:
  // A rank that was stopped and resumes finds the others' timeouts queued before the notice that
  // names it as their cause: that notice is the failure, not the first timeout.
  const detail::MpiWorld::Notice& first() const noexcept {
    for (const auto& n : m_.received)
      if (n.cause == m_.rank && n.source != m_.rank) return n;
    return m_.received.front();
  }

  detail::MpiWorld& m_;
};

void send(detail::MpiWorld& m, std::string payload, int destination, int tag) noexcept {
  try {
    auto text = std::make_shared<std::string>(std::move(payload));
    detail::MpiRequest request(detail::MpiRequest::Kind::point_to_point, text);
    if (MPI_Isend(text->data(), static_cast<int>(text->size()), MPI_CHAR, destination, tag, m.notices,
                  request.handle()) == MPI_SUCCESS)
      m.sends.push_back(std::move(request));
  } catch (...) {
  }
}

}  // namespace

namespace detail {

namespace {

// One rank's identity as it travels in the start-up exchange.
struct PeerRecord {
  long pid = 0;
  unsigned long long start_ticks = 0;
  int node = -1;  // the emulated node, -1 on a real launch
  char host[256] = {};
};

void learn_peers(MpiWorld& m, const Deadline& deadline) {
  auto records = std::make_shared<std::vector<PeerRecord>>(static_cast<std::size_t>(m.size) + 1);
  PeerRecord& mine = records->back();
  const ProcessId self = own_process();
  mine.pid = self.pid;
  mine.start_ticks = self.start_ticks;
  std::strncpy(mine.host, m.host.c_str(), sizeof mine.host - 1);
  if (m.emulation.ranks_per_node > 0) mine.node = m.node_index;
  {
    MpiRequest request(MpiRequest::Kind::collective, records);
    GPUSCALE_MPI_OK(MPI_Iallgather(&mine, sizeof(PeerRecord), MPI_BYTE, records->data(), sizeof(PeerRecord),
                                      MPI_BYTE, m.world, request.handle()));
    request.wait(deadline, "the exchange of every rank's host and process");
  }
  m.peers.assign(static_cast<std::size_t>(m.size), {});
  for (int r = 0; r < m.size; ++r) {
    const PeerRecord& record = (*records)[static_cast<std::size_t>(r)];
    auto& peer = m.peers[static_cast<std::size_t>(r)];
    peer.host.assign(record.host, strnlen(record.host, sizeof record.host));
    peer.node = record.node;
    const ProcessId process{record.pid, record.start_ticks};
    // Same host name is not proof of the same process table (containers): trust only what we see.
    if (peer.host == m.host && process_state(process) == ProcessState::alive) peer.process = process;
  }
}

}  // namespace

void start_notices(MpiWorld& m, const Deadline& deadline) {
  m.notices = duplicate(m.world, deadline, "the duplication of the world for failure notices");
  learn_peers(m, deadline);
  GPUSCALE_MPI_OK(MPI_Comm_set_errhandler(m.notices, MPI_ERRORS_RETURN));
  m.reported.assign(static_cast<std::size_t>(m.size), 0);
  m.reported[static_cast<std::size_t>(m.rank)] = 1;
  m.heard_alive.assign(static_cast<std::size_t>(m.size), Clock::time_point{});
  m.watch = std::make_unique<NoticeWatch>(m);
  set_peer_watch(m.watch.get());
}

void stop_notices(MpiWorld& m) noexcept {
  set_peer_watch(nullptr);
  m.watch.reset();
  m.sends.clear();  // each cancels or keeps its payload while MPI still holds it
  if (m.notices != MPI_COMM_NULL) MPI_Comm_free(&m.notices);
}

}  // namespace detail

void World::announce_failure(int exit_code, const std::string& message, int cause) const noexcept {
  auto& m = *mpi_;
  if (m.notices == MPI_COMM_NULL) return;
  if (cause < 0) cause = m.rank;
  std::string payload(2 * sizeof(int), '\0');
  std::memcpy(payload.data(), &exit_code, sizeof(int));
  std::memcpy(payload.data() + sizeof(int), &cause, sizeof(int));
  payload += message;
  for (int r = 0; r < m.size; ++r)
    if (r != m.rank) send(m, payload, r, kFailureTag);
}

void World::report_status(int destination, const std::string& activity) const noexcept {
  auto& m = *mpi_;
  if (m.notices != MPI_COMM_NULL && destination != m.rank && destination >= 0 && destination < m.size)
    send(m, activity, destination, kStatusTag);
}

std::vector<SilentRank> World::roll_call(const std::vector<int>& ranks, double grace_s) const noexcept {
  auto& m = *mpi_;
  std::vector<SilentRank> silent;
  try {
    auto seen = [&](int r) {
      const auto& peer = m.peers[static_cast<std::size_t>(r)];
      const auto state = detail::process_state(peer.process);
      if (state == detail::ProcessState::gone && detail::killed_in_teardown(m, r)) return SilentRank::Seen::no_answer;
      return state == detail::ProcessState::gone ? SilentRank::Seen::gone
             : state == detail::ProcessState::stopped ? SilentRank::Seen::stopped
                                                      : SilentRank::Seen::no_answer;
    };
    // Done when each rank answered, or is seen dead or stopped: those will not answer.
    auto settled = [&] {
      for (const int r : ranks)
        if (!m.reported[static_cast<std::size_t>(r)] && seen(r) == SilentRank::Seen::no_answer) return false;
      return true;
    };
    const auto until = Clock::now() + std::chrono::duration<double>(grace_s);
    for (int polls = 0; Clock::now() < until; ++polls) {
      while (take_one(m)) {
      }
      if (polls % 10 == 0 && settled()) break;  // reading /proc costs more than a probe
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (const int r : ranks)
      if (r >= 0 && r < m.size && !m.reported[static_cast<std::size_t>(r)])
        silent.push_back({r, m.peers[static_cast<std::size_t>(r)].host, seen(r), m.peers[static_cast<std::size_t>(r)].node});
  } catch (...) {
  }
  return silent;
}

std::optional<CauseNotice> notice_naming_this_rank(const World& world) noexcept {
  auto& m = world.mpi();
  try {
    while (take_one(m)) {
    }
    for (const auto& n : m.received)
      if (n.cause == m.rank && n.source != m.rank) return CauseNotice{n.source, n.exit_code, n.message};
  } catch (...) {
  }
  return std::nullopt;
}

namespace detail {

// mpirun and Slurm answer a signal (Ctrl-C, the time limit) with SIGTERM to every rank and SIGKILL
// to those left a while later (mpirun a second later, Slurm after KillWait): a peer alive when this
// rank's own signal was first seen and gone since was killed by them, not dead. A peer that died
// first (kill -9, a crash) is why the launcher signalled: it is gone at that look already. The look
// comes within kLivenessPoll_s of the signal (the Watchdog) or sooner (the error path).
void look_after_signal(MpiWorld& m) noexcept {
  if (pending_signal() == 0) return;
  try {
    const std::lock_guard lock(m.signal_look_mutex);
    if (!m.alive_at_signal.empty()) return;
    m.alive_at_signal.assign(m.peers.size(), 0);
    for (std::size_t r = 0; r < m.peers.size(); ++r)
      m.alive_at_signal[r] = m.peers[r].process.pid > 0 && process_state(m.peers[r].process) != ProcessState::gone;
  } catch (...) {
  }
}

bool killed_in_teardown(MpiWorld& m, int rank) noexcept {
  look_after_signal(m);
  try {
    const std::lock_guard lock(m.signal_look_mutex);
    return rank >= 0 && static_cast<std::size_t>(rank) < m.alive_at_signal.size() &&
           m.alive_at_signal[static_cast<std::size_t>(rank)] != 0;
  } catch (...) {
    return false;
  }
}

}  // namespace detail

std::optional<PeerDeath> World::dead_peers_to_name() const noexcept {
  auto& m = *mpi_;
  detail::look_after_signal(m);  // before the launcher's SIGKILL, which follows its SIGTERM
  try {
    const auto size = static_cast<int>(m.peers.size());
    auto watched = [&](int r) { return r != m.rank && m.peers[static_cast<std::size_t>(r)].process.pid > 0; };
    auto gone = [&](int r) {
      return detail::process_state(m.peers[static_cast<std::size_t>(r)].process) == detail::ProcessState::gone;
    };
    // Rank 0, alive on this host, names its host's dead: one look at it spares the others theirs.
    if (m.rank != 0 && size > 0 && watched(0) && !gone(0)) return std::nullopt;
    std::vector<int> dead;
    int namer = m.rank;  // the lowest live rank of this host, or rank 0 where it is alive
    for (int r = 0; r < size; ++r) {
      if (!watched(r)) continue;
      // A process gone after its end mark ended the job on purpose (its own line says why): the
      // processes gone since are the launcher's teardown, not deaths.
      if (gone(r)) {
        if (detail::ended_on_purpose(m, r) || detail::killed_in_teardown(m, r)) return std::nullopt;
        dead.push_back(r);
      } else if (r < namer && m.rank != 0) {
        namer = r;
      }
    }
    if (dead.empty() || namer != m.rank) return std::nullopt;
    PeerDeath death;
    for (const int r : dead) {
      const auto& peer = m.peers[static_cast<std::size_t>(r)];
      death.what +=
          (death.what.empty() ? "" : "; ") + describe(SilentRank{r, peer.host, SilentRank::Seen::gone, peer.node}, 0);
      death.ranks.push_back(r);
    }
    return death;
  } catch (...) {
    return std::nullopt;
  }
}

long World::peer_pid(int rank) const noexcept {
  const auto& m = *mpi_;
  if (rank < 0 || rank >= static_cast<int>(m.peers.size())) return 0;
  return m.peers[static_cast<std::size_t>(rank)].process.pid;
}

std::string describe(const SilentRank& rank, double grace_s) {
  const std::string who = "rank " + std::to_string(rank.rank) + " (host " + rank.host +
                          (rank.node >= 0 ? " node " + std::to_string(rank.node) : "") + ")";
  switch (rank.seen) {
    case SilentRank::Seen::gone: return who + " died (its process is gone)";
    case SilentRank::Seen::stopped: return who + " is stopped (SIGSTOP or a debugger) and did not respond";
    case SilentRank::Seen::no_answer: break;
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", grace_s);
  return who + " did not respond within " + seconds + " s (stalled or dead)";
}

void World::progress_notices(double seconds) const noexcept {
  auto& m = *mpi_;
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
    for (auto& request : m.sends) request.test();
    take_one(m);  // keeps the receive side progressing too
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void World::wait_for_root(int root, double silence_s, std::string_view what) const {
  auto& m = *mpi_;
  if (m.rank == root) {
    barrier(Deadline::after(silence_s));
    return;
  }
  detail::MpiRequest request(detail::MpiRequest::Kind::collective);
  GPUSCALE_MPI_OK(MPI_Ibarrier(m.world, request.handle()));
  const auto silence = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(silence_s));
  const auto since = Clock::now();
  for (int polls = 0;; ++polls) {
    int done = 0;
    GPUSCALE_MPI_OK(MPI_Test(request.handle(), &done, MPI_STATUS_IGNORE));
    poll_interrupts();  // also takes root's heartbeats off the wire
    if (done) return;
    const auto heard = m.heard_alive.empty() ? since : std::max(since, m.heard_alive[static_cast<std::size_t>(root)]);
    if (Clock::now() - heard > silence) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", silence_s);
      throw TimeoutError(error_location() + " timed out in " + std::string(what) + ": rank " + std::to_string(root) +
                         " sent no word for " + seconds + " s (stalled or dead) (" + describe(current_activity()) +
                         ")");
    }
    if (polls > 1000) std::this_thread::sleep_for(std::chrono::microseconds(polls > 100000 ? 1000 : 20));
  }
}

HeartbeatScope::HeartbeatScope(const World& world, double interval_s) noexcept : m_(world.mpi()) {
  m_.beat_interval_s = interval_s;
  m_.next_beat = Clock::now();
}

HeartbeatScope::~HeartbeatScope() { m_.beat_interval_s = 0; }

}  // namespace gpuscale::harness
