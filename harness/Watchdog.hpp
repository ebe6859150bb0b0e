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
//   - a peer process this rank watches is gone (the liveness check, below): at once, exit 3. A rank
//     killed mid-run makes the launcher end the others within about a second (Open MPI: SIGTERM,
//     then SIGKILL 1 s later), while they may be stuck in GPU work that never completes (a kernel
//     waiting for the dead rank, a launch queue full behind it), so the name cannot wait for the
//     main thread.
// Firing prints one line "[rank R host H] ... (phase ..)", hands it to the last words (rank 0's job
// writes it into the report), and calls _exit: mpirun and srun then end the other ranks. Without a
// Watchdog object alive, arming is recorded but nothing fires.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/Deadline.hpp"

namespace gpuscale::harness {

inline constexpr double kFatalGrace_s = 10.0;
inline constexpr double kLastWordsLead_s = 2.0;

inline constexpr double kLivenessPoll_s = 0.1;  // how often the liveness check runs

// Called just before the process ends (on the watchdog thread, or the main thread naming a dead
// peer), with the exit code, the line it printed and the ranks it found dead (empty unless a death
// ended the process). It must not wait for the main thread, which may be stuck. Empty clears. Main
// thread only. `writes_report`: these last words record the run (rank 0's job), so this process's
// signal grace is not lengthened by kLastWordsLead_s.
using LastWords = std::function<void(int exit_code, const std::string& line, const std::vector<int>& dead_ranks)>;
void set_last_words(LastWords last_words, bool writes_report = true);

// Called just before this process ends itself (any path above, and World::abort): marks the end as
// deliberate for the peers that watch this process (World's end marks), so that they do not name it
// dead. Empty clears. Main thread only.
void set_end_mark(std::function<void()> mark);
// Calls the end mark, if any. Any thread; never throws.
void mark_own_end() noexcept;

// Peers this process found dead and must name: "rank 2 (host h node 2) died (its process is gone)".
struct PeerDeath {
  std::string what;
  std::vector<int> ranks;
};
// Asked every kLivenessPoll_s on the watchdog thread until this process raises a fatal error of its
// own (its error path names the dead then, see end_for_dead_peers). It must be cheap and must not
// touch MPI (the thread level is FUNNELED). Empty stops the checks. Main thread only.
using LivenessCheck = std::function<std::optional<PeerDeath>()>;
void set_liveness_check(LivenessCheck check);
// Names the dead: prints "[rank R host H] ending the job: WHAT", hands it to the last words with
// exit 3 and ends the process. Any thread; the first caller wins and a second one waits for the end.
[[noreturn]] void end_for_dead_peers(const PeerDeath& death) noexcept;

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
