// alltoall: block j of rank i's input ends as block i of rank j's output. Size = one rank's buffer.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: (n-1) of the n blocks leave each rank.
double busbw_factor(int ranks) { return static_cast<double>(ranks - 1) / ranks; }

Layout layout(std::size_t elements, int ranks, int) {
  const std::size_t block = elements / static_cast<std::size_t>(ranks);
  return {block, block * static_cast<std::size_t>(ranks), block * static_cast<std::size_t>(ranks), 0, 0};
}

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  comm.all_to_all(c.send, c.recv, c.count, c.type, stream, deadline);
}

}  // namespace

extern const OpSpec kAllToAll{
    "alltoall", "", pattern::Expect::exchanged, false, false, false, busbw_factor, layout, run};

}  // namespace gpuscale::collectives
