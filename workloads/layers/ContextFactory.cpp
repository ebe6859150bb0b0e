#include "workloads/layers/ContextFactory.hpp"

#include "workloads/layers/CpuContext.hpp"
#include "workloads/layers/CudaContext.hpp"

namespace gpuscale::workloads {

std::unique_ptr<ComputeContext> make_compute_context(harness::Backend& backend, harness::Stream& stream,
                                                     const TuningOptions& tuning, double wait_s) {
  if (backend.kind() == harness::BackendKind::cpu) return make_cpu_context(backend);
  return make_cuda_context(backend, stream, tuning, wait_s);
}

}  // namespace gpuscale::workloads
