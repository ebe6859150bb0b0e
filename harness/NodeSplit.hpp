#pragma once
// Per-node and cross-node sub-communicators of a world communicator, for hierarchical collectives,
// intra- versus inter-node measurements and one-rank-per-node work. Nodes are World's: shared memory,
// or the test-only emulated nodes of GPUSCALE_TEST_RANKS_PER_NODE.
#include <memory>

#include "harness/Communicator.hpp"
#include "harness/Deadline.hpp"

namespace gpuscale::harness {

class World;

struct NodeCommunicators {
  std::unique_ptr<Communicator> node;        // this node's ranks; rank = local rank
  std::unique_ptr<Communicator> cross_node;  // one rank per node: the ranks sharing this local rank; rank = node
};

// Collective over `world_comm`, which must hold every rank of `world` in world-rank order (UsageError
// otherwise). The cross-node communicator of local rank 0 is the one-rank-per-node communicator.
NodeCommunicators split_by_node(Communicator& world_comm, const World& world, const Deadline& deadline);

}  // namespace gpuscale::harness
