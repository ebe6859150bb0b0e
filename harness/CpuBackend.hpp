#pragma once
// The cpu backend: host memory, host clocks, MPI collectives. The numerical reference for the GPU
// kernels and what CI runs end to end.
#include <memory>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

// Host memory and host streams: nothing of its own waits but a timer under the hang test seam
// (FaultInjection.hpp), until the deadline its caller passes.
std::unique_ptr<Backend> make_cpu_backend();

}  // namespace gpuscale::harness
