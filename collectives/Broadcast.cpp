// broadcast: every rank ends with the root's buffer.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  comm.broadcast(c.send, c.recv, c.count, c.type, c.root, stream, deadline);
}

}  // namespace

// nccl-tests: busbw factor 1, the data crosses each link once (pipelined chain). Every buffer holds the whole size.
extern const OpSpec kBroadcast{
    "broadcast", "Broadcast", pattern::Expect::from_root, false, true, true,
    unit_busbw_factor, whole_buffer_layout, run};

}  // namespace gpuscale::collectives
