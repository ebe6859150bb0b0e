#pragma once
// Test seams, for tests only: never set these variables in production.
//
//   GPUSCALE_TEST_FAULT=KIND:RANK:WHERE[,KIND:RANK:WHERE...]
//     KIND  stall: the rank stops making progress for ever (sleeps; does not poll, like a hung GPU)
//           exit:  the rank ends at once with exit status 0, without MPI_Finalize (a library's exit())
//           kill:  the rank sends itself SIGKILL
//           mark:  the rank announces the point and goes on (a test that strikes from outside waits
//                  for it, so the blow lands inside the operation)
//     RANK  world rank the fault hits
//     WHERE a phase ("env": fires when the phase starts; "init": before MPI_Init, with the launcher's
//           rank) or PHASE/OP ("env/smoke-allreduce", "collectives/allreduce", "compute/linear",
//           "train/ddp": fires when the operation starts; see Activity.hpp)
//   GPUSCALE_TEST_CORRUPT=RANK:BUFFER[,...]  flips bits in the named result buffer on that rank after
//     the operation that fills it, so verification must catch it ("smoke-allreduce").
// Malformed values are a UsageError (exit 2) before World starts.
#include <string_view>

namespace gpuscale::harness {

class Backend;
class Buffer;

// Reads both variables for this rank: before MPI starts (the launcher's rank), then again once World
// knows the rank.
void configure_faults(int rank);
// Fires the fault configured for this rank at `point`, if any (called by Activity).
void inject_fault_at(std::string_view point);
// Whether GPUSCALE_TEST_CORRUPT names `buffer` for this rank.
bool corruption_requested(std::string_view buffer);
// Flips the sign bit of the buffer's first 4-byte word when corruption is requested for `name`.
void corrupt_if_requested(Backend& backend, Buffer& buffer, std::string_view name);

}  // namespace gpuscale::harness
