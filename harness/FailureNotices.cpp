// World's error path: failure notices between ranks and rank 0's roll call (see World.hpp).
#include <chrono>
#include <cstring>
#include <thread>

#include "harness/Check.hpp"
#include "harness/World.hpp"
#include "harness/detail/MpiWorld.hpp"

namespace gpuscale::harness {
namespace {

constexpr int kFailureTag = 101;  // payload: int exit code, then the message
constexpr int kStatusTag = 102;   // payload: the sender's activity

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
  if (status.MPI_SOURCE >= 0 && status.MPI_SOURCE < static_cast<int>(m.reported.size()))
    m.reported[static_cast<std::size_t>(status.MPI_SOURCE)] = 1;
  if (status.MPI_TAG == kFailureTag && payload.size() >= sizeof(int)) {
    detail::MpiWorld::Notice notice;
    notice.source = status.MPI_SOURCE;
    std::memcpy(&notice.exit_code, payload.data(), sizeof(int));
    notice.message = payload.substr(sizeof(int));
    m.received.push_back(std::move(notice));
  }
  return true;
}

class NoticeWatch final : public PeerWatch {
 public:
  explicit NoticeWatch(detail::MpiWorld& m) : m_(m) {}
  bool notice_pending() noexcept override {
    while (take_one(m_)) {
    }
    return !m_.received.empty();
  }
  [[noreturn]] void throw_notice() override {
    const auto& n = m_.received.front();
    throw PeerFailedError(n.source, static_cast<ExitCode>(n.exit_code), n.message);
  }

 private:
  detail::MpiWorld& m_;
};

void send(detail::MpiWorld& m, std::string payload, int destination, int tag) noexcept {
  try {
    m.outgoing.push_back(std::make_unique<std::string>(std::move(payload)));
    const auto& text = *m.outgoing.back();
    MPI_Request request;
    if (MPI_Isend(text.data(), static_cast<int>(text.size()), MPI_CHAR, destination, tag, m.notices, &request) ==
        MPI_SUCCESS)
      m.sends.push_back(request);
  } catch (...) {
  }
}

}  // namespace

namespace detail {

void start_notices(MpiWorld& m, const Deadline& deadline) {
  MPI_Request request;
  GPUSCALE_CHECK_MPI(MPI_Comm_idup(m.world, &m.notices, &request));
  wait_request(request, deadline, "the duplication of the world for failure notices");
  GPUSCALE_CHECK_MPI(MPI_Comm_set_errhandler(m.notices, MPI_ERRORS_RETURN));
  m.reported.assign(static_cast<std::size_t>(m.size), 0);
  m.reported[static_cast<std::size_t>(m.rank)] = 1;
  m.watch = std::make_unique<NoticeWatch>(m);
  set_peer_watch(m.watch.get());
}

void stop_notices(MpiWorld& m) noexcept {
  set_peer_watch(nullptr);
  m.watch.reset();
  for (auto& request : m.sends) MPI_Request_free(&request);
  m.sends.clear();
  if (m.notices != MPI_COMM_NULL) MPI_Comm_free(&m.notices);
}

}  // namespace detail

void World::announce_failure(int exit_code, const std::string& message) const noexcept {
  auto& m = *mpi_;
  if (m.notices == MPI_COMM_NULL) return;
  std::string payload(sizeof(int), '\0');
  std::memcpy(payload.data(), &exit_code, sizeof(int));
  payload += message;
  for (int r = 0; r < m.size; ++r)
    if (r != m.rank) send(m, payload, r, kFailureTag);
}

void World::report_status_to_root(const std::string& activity) const noexcept {
  auto& m = *mpi_;
  if (m.notices != MPI_COMM_NULL && m.rank != 0) send(m, activity, 0, kStatusTag);
}

std::vector<int> World::ranks_not_reporting(double grace_s) const noexcept {
  auto& m = *mpi_;
  std::vector<int> missing;
  const auto until = Clock::now() + std::chrono::duration<double>(grace_s);
  auto all_reported = [&] {
    for (const char r : m.reported)
      if (!r) return false;
    return true;
  };
  while (!all_reported() && Clock::now() < until) {
    if (!take_one(m)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (int r = 0; r < static_cast<int>(m.reported.size()); ++r)
    if (!m.reported[static_cast<std::size_t>(r)]) missing.push_back(r);
  return missing;
}

void World::progress_notices(double seconds) const noexcept {
  auto& m = *mpi_;
  const auto until = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) {
    for (auto& request : m.sends) {
      int done = 0;
      if (request != MPI_REQUEST_NULL) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
    take_one(m);  // keeps the receive side progressing too
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace gpuscale::harness
