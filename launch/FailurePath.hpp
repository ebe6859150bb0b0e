#pragma once
// How a run ends after a timeout, a runtime error, a signal or another rank's failure, on every rank:
//   - first, a rank that sees a peer of its host dead and is the one to name it (rank 0, or the
//     lowest live rank of a host without it: World::dead_peers_to_name) prints "ending the job: rank
//     N (host H) died", records it as the cause (exit 3) and ends its process: the launcher's SIGKILL
//     follows its SIGTERM within a second, too soon for a roll call. The Watchdog asks the same
//     question every 0.1 s while the main thread is busy, so a rank stuck in GPU work names it too;
//   - the rank that failed first prints one line: rank, host, what failed, phase, op, size, iteration;
//   - it tells every other rank (World::announce_failure), whose waits then end within milliseconds;
//   - ranks != 0 report to rank 0 that they are alive, then wait for rank 0 to end the job;
//   - rank 0 tells rank 1 (its deputy) that it is alive, writes the results of finished phases with
//     the failure (interrupted: true for a signal), names the ranks that did not answer, and ends the
//     job with MPI_Abort(code): exit 3 for errors, 4 for signals. A rank seen dead or stopped (same
//     host) is named as such and is the failure's cause: its rank, exit 3;
//   - the deputy judges rank 0 the same way: if rank 0 does not answer within kRollCall_s, rank 1
//     prints one line naming it and ends the job itself (exit 3 when rank 0 is seen dead or stopped).
//     Other ranks that never hear from rank 0 abort the job themselves after kRollCall_s + 2 s.
#include <exception>

#include "harness/Error.hpp"
#include "harness/World.hpp"
#include "launch/Job.hpp"

namespace gpuscale::launch {

// Seconds rank 0 (and the deputy, for rank 0) waits for answers before naming the silent ranks.
inline constexpr double kRollCall_s = 2.0;

// `job` may be null (the error came before the job existed). Never returns.
[[noreturn]] void end_job_after_error(harness::World& world, Job* job, const harness::Error& error);
[[noreturn]] void end_job_after_unexpected(harness::World& world, Job* job, const std::exception& error);

}  // namespace gpuscale::launch
