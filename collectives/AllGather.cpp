// allgather: every rank ends with every rank's block, in rank order. Size = the gathered buffer.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: each rank receives the (n-1) blocks it does not hold.
double busbw_factor(int ranks) { return static_cast<double>(ranks - 1) / ranks; }

Layout layout(std::size_t elements, int ranks, int rank) {
  const std::size_t block = elements / static_cast<std::size_t>(ranks);
  // In place, a rank's block already sits at its own slot of the gathered buffer.
  return {block, block, block * static_cast<std::size_t>(ranks), block * static_cast<std::size_t>(rank), 0};
}

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  comm.all_gather(c.send, c.recv, c.count, c.type, stream, deadline);
}

}  // namespace

extern const OpSpec kAllGather{
    "allgather", "AllGather", pattern::Expect::gathered, false, false, true, busbw_factor, layout, run};

}  // namespace gpuscale::collectives
