#pragma once
// The last resort behind every deadline: a thread that ends this process when the main thread cannot
// end it itself, stuck in a call that has no deadline of its own (a blocking MPI or CUDA call, a
// destructor that synchronises a hung device). It fires when
//   - a BlockingCall outlives its deadline (exit 3),
//   - a fatal error (timeout, signal, peer failure) was raised and the process still runs after
//     kFatalGrace_s (the error path writes results and calls MPI_Abort well before that),
//   - SIGTERM/SIGINT arrived and the process still runs after kFatalGrace_s (exit 4), busy in work
//     that does not poll; kLastWordsLead_s later in a process without last words, so that rank 0,
//     which records the failure, is not ended by the launcher before its own watchdog fires.
// Firing prints one line "[rank R host H] ... (phase ..)", hands it to the last words (rank 0's job
// writes it into the report), and calls _exit: mpirun and srun then end the other ranks. Without a
// Watchdog object alive, arming is recorded but nothing fires.
#include <functional>
#include <string>

#include "harness/Deadline.hpp"

namespace gpuscale::harness {

inline constexpr double kFatalGrace_s = 10.0;
inline constexpr double kLastWordsLead_s = 2.0;

// Called on the watchdog thread just before it ends the process, with the exit code and the line it
// printed. It must not wait for the main thread, which is stuck. Empty clears. Main thread only.
using LastWords = std::function<void(int exit_code, const std::string& line)>;
void set_last_words(LastWords last_words);

class Watchdog {
 public:
  Watchdog();   // starts the thread; one per process (main creates it)
  ~Watchdog();  // stops and joins it
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
};

// Marks a call that cannot poll (MPI_Comm_split, MPI_Finalize, ...). Scoped; main thread only.
class BlockingCall {
 public:
  BlockingCall(const Deadline& deadline, std::string what);
  ~BlockingCall();
  BlockingCall(const BlockingCall&) = delete;
  BlockingCall& operator=(const BlockingCall&) = delete;
};

}  // namespace gpuscale::harness
