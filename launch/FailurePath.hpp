#pragma once
// How a run ends after a timeout, a runtime error, a signal or another rank's failure, on every rank:
//   - the rank that failed first prints one line: rank, host, what failed, phase, op, size, iteration;
//   - it tells every other rank (World::announce_failure), whose waits then end within milliseconds;
//   - ranks != 0 report to rank 0 that they are alive, then wait for rank 0 to end the job;
//   - rank 0 writes the results of finished phases with the failure (interrupted: true for a signal),
//     names the ranks that did not answer (stalled or dead), and ends the job with MPI_Abort(code):
//     exit 3 for errors, 4 for signals. Ranks that never hear from rank 0 abort the job themselves.
#include <exception>

#include "harness/Error.hpp"
#include "harness/World.hpp"
#include "launch/Job.hpp"

namespace gpuscale::launch {

// Seconds rank 0 waits for the other ranks to answer before naming the silent ones.
inline constexpr double kRollCall_s = 2.0;

// `job` may be null (the error came before the job existed). Never returns.
[[noreturn]] void end_job_after_error(harness::World& world, Job* job, const harness::Error& error);
[[noreturn]] void end_job_after_unexpected(harness::World& world, Job* job, const std::exception& error);

}  // namespace gpuscale::launch
