// reduce: the root ends with the reduction; other ranks' output is untouched.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  comm.reduce(c.send, c.recv, c.count, c.type, c.redop, c.root, stream, deadline);
}

}  // namespace

// nccl-tests: busbw factor 1, the data crosses each link once (pipelined chain). Every buffer holds the whole size.
extern const OpSpec kReduce{
    "reduce", "Reduce", pattern::Expect::reduced_at_root, true, true, true,
    unit_busbw_factor, whole_buffer_layout, run};

}  // namespace gpuscale::collectives
