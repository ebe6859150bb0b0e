#pragma once
// The cuda implementation of ComputeContext (cuBLASLt, cuDNN, fill and cast kernels). Defined by
// CudaContext.cpp where the CUDA backend is built and by NoCudaContext.cpp elsewhere.
#include <memory>

#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

std::unique_ptr<ComputeContext> make_cuda_context(harness::Backend& backend, harness::Stream& stream,
                                                  const TuningOptions& tuning, double wait_s);

}  // namespace gpuscale::workloads
