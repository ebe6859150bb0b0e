#pragma once
// The cpu implementation of ComputeContext: the double-precision reference on host memory.
#include <memory>

#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

std::unique_ptr<ComputeContext> make_cpu_context(harness::Backend& backend);

}  // namespace gpuscale::workloads
