// reduce: the root ends with the reduction; other ranks' output is untouched.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: the data crosses each link once (pipelined chain).
double busbw_factor(int) { return 1.0; }

Layout layout(std::size_t elements, int, int) {
  return {elements, elements, elements, 0, 0};
}

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream) {
  comm.reduce(c.send, c.recv, c.count, c.type, c.redop, c.root, stream);
}

}  // namespace

extern const OpSpec kReduce{"reduce", pattern::Expect::reduced_at_root, true, true, true, busbw_factor, layout, run};

}  // namespace gpuscale::collectives
