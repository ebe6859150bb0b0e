// broadcast: every rank ends with the root's buffer.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: the data crosses each link once (pipelined chain).
double busbw_factor(int) { return 1.0; }

Layout layout(std::size_t elements, int, int) {
  return {elements, elements, elements, 0, 0};
}

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream) {
  comm.broadcast(c.send, c.recv, c.count, c.type, c.root, stream);
}

}  // namespace

extern const OpSpec kBroadcast{"broadcast", pattern::Expect::from_root, false, true, true, busbw_factor, layout, run};

}  // namespace gpuscale::collectives
