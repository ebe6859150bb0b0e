#include "harness/Watchdog.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

#include "harness/Activity.hpp"
#include "harness/Error.hpp"
#include "harness/Interrupts.hpp"

namespace gpuscale::harness {
namespace {

using Clock = std::chrono::steady_clock;

struct Armed {
  Clock::time_point at;
  std::string what;
  ExitCode code;
};

std::mutex state_mutex;
std::condition_variable wake;
std::optional<Armed> blocking, fatal;
std::atomic<bool> fatal_raised{false};  // read by destructors on any thread, without the lock
bool stop_thread = false;
std::thread watcher;
LastWords last_words;
bool last_words_write_report = false;
std::function<void()> end_mark;  // guarded by end_mark_mutex, which fire() does not hold
std::mutex end_mark_mutex;
std::mutex liveness_mutex;  // held while the check runs: clearing it waits for a check in flight
LivenessCheck liveness;     // guarded by liveness_mutex
std::atomic<bool> liveness_set{false};
std::atomic<bool> ending{false};  // a thread has begun to end the process (fire, end_for_dead_peers)

// Prints the line, hands it to the last words and ends the process. The caller holds no lock.
[[noreturn]] void end_process(int code, const std::string& line, const std::vector<int>& dead_ranks,
                              const LastWords& words) noexcept {
  // write(2), not iostreams: the main thread may hold the stream's lock.
  const std::string printed = line + "\n";
  [[maybe_unused]] const auto n = ::write(2, printed.data(), printed.size());
  mark_own_end();
  if (words) {
    try {
      words(code, line, dead_ranks);
    } catch (...) {
    }
  }
  std::_Exit(code);
}

// The first caller goes on; any later one (another thread) waits for the first to end the process.
void claim_the_end() noexcept {
  if (!ending.exchange(true)) return;
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

[[noreturn]] void fire(const Armed& armed, const LastWords& words) {
  claim_the_end();
  end_process(
      static_cast<int>(armed.code),
      error_location() + " " + armed.what + " (" + describe(current_activity()) + "); watchdog ends the process", {},
      words);
}

void watch() {
  std::optional<Clock::time_point> signal_seen;
  std::unique_lock lock(state_mutex);
  while (!stop_thread) {
    wake.wait_for(lock, std::chrono::duration<double>(liveness_set ? kLivenessPoll_s : 0.2));
    if (stop_thread) break;
    // Before the deadlines: a rank that died is why the others stall, and why the launcher signals.
    if (liveness_set && !fatal_raised) {
      lock.unlock();  // reading /proc must not hold up the main thread's arming
      std::optional<PeerDeath> death;
      try {
        const std::lock_guard check_lock(liveness_mutex);
        if (liveness) death = liveness();
      } catch (...) {
      }
      if (death) end_for_dead_peers(*death);
      lock.lock();
      if (stop_thread) break;
    }
    const auto now = Clock::now();
    if (pending_signal() && !signal_seen) signal_seen = now;
    const double grace_s = kFatalGrace_s + (last_words_write_report ? 0.0 : kLastWordsLead_s);
    if (signal_seen && now - *signal_seen > std::chrono::duration<double>(grace_s))
      fire({now,
            std::string("interrupted by ") + signal_name(pending_signal()) +
                ", busy in work that did not stop within " + std::to_string(static_cast<int>(grace_s)) + " s",
            ExitCode::interrupted},
           last_words);
    if (fatal && now >= fatal->at) fire(*fatal, last_words);
    if (blocking && now >= blocking->at) fire(*blocking, last_words);
  }
}

Clock::time_point clock_at(const Deadline& deadline) {
  const double left = deadline.remaining_s();
  if (!(left < 1e9)) return Clock::time_point::max();
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(left));
}

}  // namespace

void set_last_words(LastWords words, bool writes_report) {
  std::lock_guard lock(state_mutex);
  last_words = std::move(words);
  last_words_write_report = last_words && writes_report;
}

void set_end_mark(std::function<void()> mark) {
  const std::lock_guard lock(end_mark_mutex);
  end_mark = std::move(mark);
}

void mark_own_end() noexcept {
  try {
    const std::lock_guard lock(end_mark_mutex);
    if (end_mark) end_mark();
  } catch (...) {
  }
}

void set_liveness_check(LivenessCheck check) {
  const std::lock_guard lock(liveness_mutex);
  liveness = std::move(check);
  liveness_set = static_cast<bool>(liveness);
}

void end_for_dead_peers(const PeerDeath& death) noexcept {
  LastWords words;
  try {
    std::lock_guard lock(state_mutex);  // before the claim: fire() claims while it holds the lock
    words = last_words;
  } catch (...) {
  }
  claim_the_end();
  end_process(static_cast<int>(ExitCode::runtime), error_location() + " ending the job: " + death.what, death.ranks,
              words);
}

namespace detail {
void on_fatal_error(ExitCode code) noexcept {
  fatal_raised = true;
  try {
    std::lock_guard lock(state_mutex);
    if (fatal) return;
    fatal = Armed{clock_at(Deadline::after(kFatalGrace_s)), "did not end within " +
                  std::to_string(static_cast<int>(kFatalGrace_s)) + " s of a fatal error", code};
  } catch (...) {
  }
}
}  // namespace detail

bool fatal_error_raised() noexcept { return fatal_raised; }

Watchdog::Watchdog() {
  std::lock_guard lock(state_mutex);
  stop_thread = false;
  watcher = std::thread(watch);
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(state_mutex);
    stop_thread = true;
  }
  wake.notify_all();
  if (watcher.joinable()) watcher.join();
}

BlockingCall::BlockingCall(const Deadline& deadline, std::string what) {
  std::lock_guard lock(state_mutex);
  blocking = Armed{clock_at(deadline), std::move(what) + " did not return by its deadline", ExitCode::runtime};
}

BlockingCall::~BlockingCall() {
  std::lock_guard lock(state_mutex);
  blocking.reset();
}

}  // namespace gpuscale::harness
