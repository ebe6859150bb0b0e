#pragma once
// The cpu backend's communicator: MPI collectives on host buffers. Each operation completes before it
// returns (the stream argument is ignored); every wait polls against the operation's deadline.
#include <memory>

#include "harness/Communicator.hpp"

namespace gpuscale::harness {

class World;

// Collective over the world: duplicates its communicator by `deadline`.
std::unique_ptr<Communicator> make_mpi_communicator(const World& world, const Deadline& deadline);

}  // namespace gpuscale::harness
