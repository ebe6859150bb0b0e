#pragma once
// The one error type family. Every failure carries the exit code it maps to; runtime failures also
// carry where they happened (file:line, expression, library error) and which rank on which host.
#include <stdexcept>
#include <string>

namespace gpuscale::harness {

enum class ExitCode : int { ok = 0, verdict_failed = 1, usage = 2, runtime = 3, interrupted = 4 };

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode exit_code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

// Bad command line or input file: one line, exit 2, nothing written.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(ExitCode::usage, message) {}
};

// CUDA, NCCL, cuBLAS, cuDNN, MPI or system failure: exit 3.
class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(ExitCode::runtime, message) {}
};

// A library call failed. what() reads "file:line: expr failed: LIB NAME: text".
class LibraryError : public RuntimeError {
 public:
  LibraryError(std::string library, std::string name, const std::string& message)
      : RuntimeError(message), library_(std::move(library)), name_(std::move(name)) {}
  const std::string& library() const noexcept { return library_; }
  const std::string& name() const noexcept { return name_; }

 private:
  std::string library_, name_;
};

// An allocation failed: callers that can go on turn it into a skipped record.
class OutOfMemoryError : public LibraryError {
 public:
  using LibraryError::LibraryError;
};

namespace detail {
// Arms the watchdog's last resort (Watchdog.hpp): a fatal error must end the process within a grace.
void on_fatal_error(ExitCode code) noexcept;
}  // namespace detail

// Whether a fatal error (timeout, signal, peer failure) was raised in this process, which is then
// ending. Destructors that would wait on the device (cudaFree, a library handle's destroy: both
// synchronise it) skip the release: a device that stopped would hold them, and the job, until the
// watchdog fires; the process's end releases everything.
bool fatal_error_raised() noexcept;

// A wait passed its deadline; the communicators involved were aborted before this was thrown.
class TimeoutError : public RuntimeError {
 public:
  explicit TimeoutError(const std::string& message) : RuntimeError(message) { detail::on_fatal_error(ExitCode::runtime); }
};

// SIGTERM or SIGINT arrived (Slurm's time limit, Ctrl-C): exit 4 after writing what finished.
class InterruptedError : public Error {
 public:
  InterruptedError(int signal, const std::string& message) : Error(ExitCode::interrupted, message), signal_(signal) {
    detail::on_fatal_error(ExitCode::interrupted);
  }
  int signal() const noexcept { return signal_; }

 private:
  int signal_;
};

// Another rank announced that it failed; this rank ends the job with that rank's exit code.
class PeerFailedError : public Error {
 public:
  // `rank`: the failure's cause. `found_silent`: another rank found it silent in a roll call (stopped
  // or dead) and says so, rather than the rank reporting its own failure.
  PeerFailedError(int rank, ExitCode code, const std::string& message, bool found_silent = false)
      : Error(code, message), rank_(rank), found_silent_(found_silent) {
    detail::on_fatal_error(code);
  }
  int rank() const noexcept { return rank_; }
  bool found_silent() const noexcept { return found_silent_; }

 private:
  int rank_;
  bool found_silent_;
};

// Who we are, for error messages: set once World knows the rank. "[rank R host H]".
void set_error_location(int rank, const std::string& host);
std::string error_location();

// Builds and throws the right LibraryError subtype; used by the GPUSCALE_<LIBRARY>_OK macros.
[[noreturn]] void throw_library_error(const char* library, int code, const char* name, const char* text,
                                      const char* expr, const char* file, int line, bool out_of_memory);

}  // namespace gpuscale::harness
