// sendrecv: each rank sends to its ring successor and receives from its predecessor.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  const int n = comm.size(), me = comm.rank();
  comm.send_recv(c.send, (me + 1) % n, c.recv, (me + n - 1) % n, c.count, c.type, stream, deadline);
}

}  // namespace

// nccl-tests: busbw factor 1, one point-to-point transfer per rank. Every buffer holds the whole size.
extern const OpSpec kSendRecv{
    "sendrecv", "", pattern::Expect::from_previous, false, false, false, unit_busbw_factor, whole_buffer_layout, run};

}  // namespace gpuscale::collectives
