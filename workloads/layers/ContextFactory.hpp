#pragma once
// The compute context for a backend: the CPU's (BLAS, im2col) or CUDA's (cuBLASLt, cuDNN). A room of
// its own above both, which include the interface (Layer.hpp) it returns.
#include <memory>

#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

// cpu or cuda by backend.kind(). `stream` is where tuning runs; it must outlive the context.
// `wait_s` bounds each wait of the tuning (a search's or a round's synchronize): the caller's
// (launch: the phase's --timeout).
std::unique_ptr<ComputeContext> make_compute_context(harness::Backend& backend, harness::Stream& stream,
                                                     const TuningOptions& tuning, double wait_s);

}  // namespace gpuscale::workloads
