#pragma once
// Communicators of one process over several of its own devices, for DP-style training where one
// process drives every local GPU: ncclCommInitAll on cuda; an in-process group of host "devices" on
// the cpu backend. Member i belongs to devices[i].
//
// Every member must be called from the one driving thread, inside group_start()/group_end() of any
// member (NCCL's rule for one thread driving several GPUs): post the operation on each member in
// turn, then end the group. On the cpu group an operation runs when its last member posts it.
// Local: no communication with other ranks.
#include <memory>
#include <span>
#include <vector>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

// devices: one backend per device, all of one kind. Every wait takes its caller's deadline.
std::vector<std::unique_ptr<Communicator>> create_local_group(std::span<Backend* const> devices);

// The two implementations behind create_local_group.
std::vector<std::unique_ptr<Communicator>> make_nccl_local_group(const std::vector<int>& cuda_devices);
std::vector<std::unique_ptr<Communicator>> make_in_process_group(int members);

}  // namespace gpuscale::harness
