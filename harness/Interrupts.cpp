#include "harness/Interrupts.hpp"

#include <chrono>
#include <csignal>
#include <string>

#include "harness/ActivityState.hpp"
#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

volatile std::sig_atomic_t received_signal = 0;
PeerWatch* peer_watch = nullptr;

extern "C" void record_signal(int signal) {
  if (received_signal == 0) received_signal = signal;
}

}  // namespace

const char* signal_name(int signal) noexcept {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

void install_signal_handlers() {
  struct sigaction action = {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking sleep or read returns early with EINTR
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}

int pending_signal() noexcept { return received_signal; }

void set_peer_watch(PeerWatch* watch) noexcept { peer_watch = watch; }

bool interrupts_pending() noexcept {
  if (received_signal != 0) return true;
  return peer_watch && peer_watch->notice_pending();
}

void poll_interrupts() {
  const int signal = received_signal;
  const bool peer_failed = peer_watch && peer_watch->notice_pending();
  if (peer_failed && (signal == 0 || peer_watch->notice_exit_code() != static_cast<int>(ExitCode::interrupted)))
    peer_watch->throw_notice();
  if (signal != 0) {
    throw InterruptedError(signal, error_location() + " interrupted by " + signal_name(signal) + " (" +
                                       describe(current_activity()) + "); writing what finished");
  }
}

}  // namespace gpuscale::harness
