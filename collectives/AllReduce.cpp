// allreduce: every rank ends with the reduction of every rank's buffer.
#include "collectives/Op.hpp"

namespace gpuscale::collectives {
namespace {

// nccl-tests: a ring moves 2(n-1)/n of the data through each rank's link.
double busbw_factor(int ranks) { return 2.0 * (ranks - 1) / ranks; }

void run(harness::Communicator& comm, const Call& c, harness::Stream& stream, const harness::Deadline& deadline) {
  comm.all_reduce(c.send, c.recv, c.count, c.type, c.redop, stream, deadline);
}

}  // namespace

// Every buffer holds the whole size.
extern const OpSpec kAllReduce{
    "allreduce", "AllReduce", pattern::Expect::reduced, true, false, true, busbw_factor, whole_buffer_layout, run};

}  // namespace gpuscale::collectives
