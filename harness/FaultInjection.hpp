#pragma once
// Test seams, for tests only: never set these variables in production.
//
//   GPUSCALE_TEST_FAULT=KIND:RANK:WHERE[,KIND:RANK:WHERE...]
//     KIND  stall: the rank stops making progress for ever (sleeps; does not poll, like a hung GPU)
//           exit:  the rank ends at once with exit status 0, without MPI_Finalize (a library's exit())
//           kill:  the rank sends itself SIGKILL
//           mark:  the rank announces the point and goes on (a test that strikes from outside waits
//                  for it, so the blow lands inside the operation)
//           hang:  from the point on, the rank's timed intervals never complete (Timer::elapsed_s
//                  polls until its deadline, like a GPU event that never fires; on cuda the stream
//                  waits on a host word that is never written, so the GPU itself stops there)
//     RANK  world rank the fault hits
//     WHERE a phase ("env": fires when the phase starts; "init": before MPI_Init, with the launcher's
//           rank) or PHASE/OP ("env/smoke-allreduce", "collectives/allreduce", "compute/linear",
//           "train/ddp": fires when the operation starts; see Activity.hpp)
//   GPUSCALE_TEST_CORRUPT=RANK:BUFFER[,...]  flips bits in the named result buffer on that rank after
//     the operation that fills it, so verification must catch it ("smoke-allreduce").
//   GPUSCALE_TEST_FOREIGN_PROCESS=RANK:KIND:PID[@PHASE][,...]  the tenancy probe of that rank lists
//     process PID on its GPU as well, as NVML would (KIND compute: a compute context, memory: graphics
//     only, holding memory), on any backend; the name comes from /proc/PID/comm like a real one's.
//     @PHASE: the process appears when PHASE starts (a phase name: "compute"), so env's probe does not
//     list it and the checks at phase boundaries do; without it, it is there from the start.
//   GPUSCALE_TEST_SLOW_NODE=NODE  every rank of node NODE (World::node) sleeps 200 ms after each
//     operation of the cpu communicator, like a node whose links are slow, for the isolation tests.
// Malformed values are a UsageError (exit 2) before World starts, and so are places, buffers and phases
// that no seam fires at (the valid ones listed in the message), and `hang` at "finish", after which no
// device work is left to stop.
#include <string>
#include <string_view>
#include <vector>

namespace gpuscale::harness {

class Backend;
class Buffer;
class Deadline;

// What the seams may name, from the layers that open them (launch/SeamPlaces.cpp): the Activity
// points (phases, "init", "finish" and PHASE/OP), the result buffers GPUSCALE_TEST_CORRUPT may spoil,
// and the phases GPUSCALE_TEST_FOREIGN_PROCESS may name.
struct SeamPlaces {
  std::vector<std::string> points;
  std::vector<std::string> buffers;
  std::vector<std::string> phases;
};

// Reads the variables for this rank: before MPI starts (the launcher's rank), then again once World
// knows the rank. Throws UsageError for a malformed value or one that names none of `places`.
void configure_faults(int rank, const SeamPlaces& places);
// Fires the fault configured for this rank at `point`, if any (called by Activity).
void inject_fault_at(std::string_view point);
struct InjectedProcess {
  bool compute = false;
  int pid = 0;
  std::string from_phase;  // empty: from the start
  bool appeared = false;   // its phase has started (or it has none)
};
// GPUSCALE_TEST_FOREIGN_PROCESS's entries for this rank that have appeared by now.
std::vector<InjectedProcess> injected_foreign_processes();
// Whether a hang fault has fired on this rank: its timers' waits never see their stop.
bool timers_hang();
// The cpu backend's side of hang: once a hang fault has fired, a wait for device work (a timer, a
// stream, an event, a communicator's operation) never sees it done, as on a GPU that stopped: it polls
// (signals, peers' failures) until `deadline`, then throws TimeoutError "timed out waiting for WHAT
// (activity)". Returns at once when no hang fired.
void wait_if_hung(const Deadline& deadline, std::string_view what);
// The node GPUSCALE_TEST_SLOW_NODE names; -1 when unset.
int slowed_node();
// Whether GPUSCALE_TEST_CORRUPT names `buffer` for this rank.
bool corruption_requested(std::string_view buffer);
// Flips the sign bit of the buffer's first 4-byte word when corruption is requested for `name`; its
// copies wait until `deadline`.
void corrupt_if_requested(Backend& backend, Buffer& buffer, std::string_view name, const Deadline& deadline);

}  // namespace gpuscale::harness
