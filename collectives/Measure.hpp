#pragma once
// Times and verifies one op at one size in one placement, the way nccl-tests does: inputs written,
// warm-up, barrier, timed iterations between boundary events (collectives/BoundaryTimer), then
// verification passes after timing.
// Collective over the WORLD: every rank calls it, members of `comm` do the work, the others (comm ==
// nullptr: not in this sub-communicator) only join the reductions of the figures.
#include <cstdint>
#include <memory>
#include <vector>

#include "collectives/BoundaryTimer.hpp"
#include "collectives/DataVerifier.hpp"
#include "collectives/Op.hpp"
#include "collectives/SweepOptions.hpp"
#include "harness/Backend.hpp"
#include "harness/World.hpp"
#include "phases/collectives/CollectiveRecords.hpp"

namespace gpuscale::collectives {

// What one measurement runs on. Buffers hold at least the largest layout of the sweep (bytes).
struct Bench {
  const harness::World& world;
  harness::Backend& backend;
  harness::Communicator* comm;  // nullptr: this rank sits this one out
  harness::Stream& stream;
  DataVerifier& verifier;
  harness::Buffer& send;
  harness::Buffer& recv;
  BoundaryTimer& timer;  // max_iterations() >= max(iterations, graph launches)
  double timeout_s;
  bool corrupt;  // test seam: this rank spoils one output element in the last check pass
};

struct Placement {
  bool in_place = false;
  std::size_t elements = 0;  // size / element size
};

results::CollectiveTiming measure(Bench& bench, const SweepOptions& options, const OpSpec& op, Placement placement);

// The pattern for `op` on rank `rank` of `ranks` (the span keeps every reduction exact in the type).
pattern::Spec make_spec(const OpSpec& op, const SweepOptions& options, int ranks, int rank, std::size_t count);

}  // namespace gpuscale::collectives
