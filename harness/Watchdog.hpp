#pragma once
// The last resort behind every deadline: a thread that ends this process when the main thread cannot
// end it itself, stuck in a call that has no deadline of its own (a blocking MPI or CUDA call, a
// destructor that synchronises a hung device). It fires when
//   - a BlockingCall outlives its deadline (exit 3),
//   - a fatal error (timeout, signal, peer failure) was raised and the process still runs after
//     kFatalGrace_s (the error path writes results and calls MPI_Abort well before that),
//   - SIGTERM/SIGINT arrived and the process still runs after kFatalGrace_s (exit 4).
// Firing prints one line "[rank R host H] ... (phase ..)" and calls _exit: mpirun and srun then end
// the other ranks. Without a Watchdog object alive, arming is recorded but nothing fires.
#include <string>

#include "harness/Deadline.hpp"

namespace gpuscale::harness {

inline constexpr double kFatalGrace_s = 10.0;

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
