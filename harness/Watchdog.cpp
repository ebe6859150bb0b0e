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

[[noreturn]] void fire(const Armed& armed) {
  const std::string line = error_location() + " " + armed.what + " (" + describe(current_activity()) +
                           "); watchdog ends the process";
  // write(2), not iostreams: the main thread may hold the stream's lock.
  const std::string printed = line + "\n";
  [[maybe_unused]] const auto n = ::write(2, printed.data(), printed.size());
  if (last_words) {
    try {
      last_words(static_cast<int>(armed.code), line);
    } catch (...) {
    }
  }
  std::_Exit(static_cast<int>(armed.code));
}

void watch() {
  std::optional<Clock::time_point> signal_seen;
  std::unique_lock lock(state_mutex);
  while (!stop_thread) {
    wake.wait_for(lock, std::chrono::milliseconds(200));
    const auto now = Clock::now();
    if (pending_signal() && !signal_seen) signal_seen = now;
    const double grace_s = kFatalGrace_s + (last_words ? 0.0 : kLastWordsLead_s);
    if (signal_seen && now - *signal_seen > std::chrono::duration<double>(grace_s))
      fire({now, std::string("interrupted by ") + signal_name(pending_signal()) + ", busy in work that did not stop within " +
           std::to_string(static_cast<int>(grace_s)) + " s", ExitCode::interrupted});
    if (fatal && now >= fatal->at) fire(*fatal);
    if (blocking && now >= blocking->at) fire(*blocking);
  }
}

Clock::time_point clock_at(const Deadline& deadline) {
  const double left = deadline.remaining_s();
  if (!(left < 1e9)) return Clock::time_point::max();
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(left));
}

}  // namespace

void set_last_words(LastWords words) {
  std::lock_guard lock(state_mutex);
  last_words = std::move(words);
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
