#pragma once
// The cpu backend's communicator: MPI collectives on host buffers. Each operation completes before it
// returns (the stream argument is ignored); every wait polls against the operation timeout.
#include <memory>

#include "harness/Communicator.hpp"

namespace gpuscale::harness {

class World;

// Collective over the world: duplicates its communicator. op_timeout_s bounds every operation.
std::unique_ptr<Communicator> make_mpi_communicator(const World& world, double op_timeout_s);

}  // namespace gpuscale::harness
