// sendrecv: each rank sends to its ring successor and receives from its predecessor.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: one point-to-point transfer per rank.
double busbw_factor(int) { return 1.0; }

Layout layout(std::size_t elements, int, int) {
  return {elements, elements, elements, 0, 0};
}

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream) {
  const int n = comm.size(), me = comm.rank();
  comm.send_recv(c.send, (me + 1) % n, c.recv, (me + n - 1) % n, c.count, c.type, stream);
}

}  // namespace

extern const OpSpec kSendRecv{"sendrecv", pattern::Expect::from_previous, false, false, false, busbw_factor, layout, run};

}  // namespace gpuscale::collectives
