// Linked where the CUDA backend is not built: a cuda backend cannot exist, so neither can this.
#include "harness/Error.hpp"
#include "workloads/layers/CudaContext.hpp"

namespace gpuscale::workloads {

std::unique_ptr<ComputeContext> make_cuda_context(harness::Backend&, harness::Stream&, const TuningOptions&, double) {
  throw harness::UsageError("this gpuscale was built without the CUDA backend: no cuBLAS or cuDNN layers");
}

}  // namespace gpuscale::workloads

#include "workloads/train/TrainOps.hpp"

namespace gpuscale::workloads {

std::unique_ptr<TrainOps> make_cuda_train_ops() {
  throw harness::UsageError("this gpuscale was built without the CUDA backend: no training kernels");
}

}  // namespace gpuscale::workloads

#include "workloads/links/MemoryKernels.hpp"

namespace gpuscale::workloads::kernels {

void fill_index(float*, std::size_t, void*) {
  throw harness::UsageError("this gpuscale was built without the CUDA backend: no memory kernels");
}
void triad(float*, const float*, const float*, float, std::size_t, void*) {
  throw harness::UsageError("this gpuscale was built without the CUDA backend: no memory kernels");
}

}  // namespace gpuscale::workloads::kernels
