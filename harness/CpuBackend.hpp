#pragma once
// The cpu backend: host memory, host clocks, MPI collectives. The numerical reference for the GPU
// kernels and what CI runs end to end.
#include <memory>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

// op_timeout_s bounds every communicator operation.
std::unique_ptr<Backend> make_cpu_backend(double op_timeout_s);

}  // namespace gpuscale::harness
