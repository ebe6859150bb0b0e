#pragma once
// Things that end a run from outside the current wait: SIGTERM/SIGINT (the handler only sets a flag)
// and another rank announcing its failure (the World's peer watch). Every polling wait calls
// poll_interrupts(), so a signal or a peer's failure ends the wait within milliseconds.
namespace gpuscale::harness {

// Installs async-signal-safe SIGTERM and SIGINT handlers that record the signal. Local.
void install_signal_handlers();
// The first SIGTERM/SIGINT received, 0 if none. Async-signal-safe.
int pending_signal() noexcept;
// "SIGTERM", "SIGINT", "a signal".
const char* signal_name(int signal) noexcept;

// Implemented by World: a nonblocking look for another rank's failure notice. Main thread only.
class PeerWatch {
 public:
  virtual ~PeerWatch() = default;
  // True when a notice is waiting; `throw_notice` then throws it as PeerFailedError.
  virtual bool notice_pending() noexcept = 0;
  // The exit code the oldest pending notice carries (call after notice_pending() returned true).
  virtual int notice_exit_code() const noexcept = 0;
  [[noreturn]] virtual void throw_notice() = 0;
};
// Registers the watch (non-owning; nullptr unregisters). World does this for its lifetime.
void set_peer_watch(PeerWatch* watch) noexcept;

// Whether a signal or a peer's failure notice is waiting (never throws; for noexcept loops).
bool interrupts_pending() noexcept;
// Throws InterruptedError for a signal, PeerFailedError for a peer's notice; returns otherwise.
// A peer's failure other than an interruption wins over a signal: a launcher signals the survivors
// after a rank failed (mpirun, after MPI_Abort), and the failure is the cause worth recording.
void poll_interrupts();

}  // namespace gpuscale::harness
