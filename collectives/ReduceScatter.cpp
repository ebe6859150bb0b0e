// reducescatter: rank i ends with block i of the reduction. Size = the whole input.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: each rank sends the (n-1) blocks it does not keep.
double busbw_factor(int ranks) { return static_cast<double>(ranks - 1) / ranks; }

Layout layout(std::size_t elements, int ranks, int rank) {
  const std::size_t block = elements / static_cast<std::size_t>(ranks);
  // In place, a rank's result lands on its own slot of the input buffer.
  return {block, block * static_cast<std::size_t>(ranks), block, 0, block * static_cast<std::size_t>(rank)};
}

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  comm.reduce_scatter(c.send, c.recv, c.count, c.type, c.redop, stream, deadline);
}

}  // namespace

extern const OpSpec kReduceScatter{
    "reducescatter", "ReduceScatter", pattern::Expect::reduced_block, true, false, true, busbw_factor, layout, run};

}  // namespace gpuscale::collectives
