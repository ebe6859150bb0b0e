#pragma once
// One verified allreduce through the backend's communicator, proving MPI bootstrap, the
// communicator and the links end to end. Collective over the world.
#include "harness/Backend.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::harness {

class World;

inline constexpr std::size_t kSmokeElements = 1 << 20;  // 4 MiB of floats

// Never throws for a failed or late allreduce: the failure is recorded in the result (the error
// check reports it). Throws only for faults outside the communicator (allocation, copies).
results::SmokeAllreduce run_smoke_allreduce(const World& world, Backend& backend, double timeout_s);

}  // namespace gpuscale::harness
