#pragma once
// The cpu backend: host memory, host clocks, MPI collectives. The numerical reference for the GPU
// kernels and what CI runs end to end.
#include <memory>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

// Host memory and host streams: nothing of its own waits but a timer under the hang test seam
// (FaultInjection.hpp), which op_timeout_s bounds as it bounds the cuda backend's timers; each
// communicator has its timeout (create_communicator).
std::unique_ptr<Backend> make_cpu_backend(double op_timeout_s = kLibraryWaitTimeoutS);

}  // namespace gpuscale::harness
