#include "harness/NodeSplit.hpp"

#include "harness/Error.hpp"
#include "harness/World.hpp"

namespace gpuscale::harness {

NodeCommunicators split_by_node(Communicator& world_comm, const World& world, const Deadline& deadline) {
  if (world_comm.size() != world.size() || world_comm.rank() != world.rank())
    throw UsageError("split_by_node needs a communicator of the whole world in world-rank order");
  NodeCommunicators out;
  out.node = world_comm.split(world.node(), world.local_rank(), deadline);
  out.cross_node = world_comm.split(world.local_rank(), world.node(), deadline);
  return out;
}

}  // namespace gpuscale::harness
