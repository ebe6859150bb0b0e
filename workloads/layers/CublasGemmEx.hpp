#pragma once
// cublasGemmEx with CUBLAS_GEMM_DEFAULT_TENSOR_OP: the path PyTorch's mm takes on CUDA by default,
// timed as one more candidate beside cuBLASLt's heuristic results, since cuBLAS's own choice of
// kernel can be one that the cuBLASLt heuristic does not offer. CUDA-only (see Gemm.hpp).
// One owner of one cublasHandle_t, created on first use (cublasCreate is slow, and a context that
// never times this path never needs it) with the device current. Local; one stream at a time.
#include <cstddef>

#include <cublas_v2.h>

#include "workloads/layers/Gemm.hpp"
#include "workloads/layers/LibraryHandle.hpp"
#include "workloads/layers/Workspace.hpp"

namespace gpuscale::workloads {

// The workspace that PyTorch gives cuBLAS on Hopper.
inline constexpr std::size_t kCublasWorkspaceBytes = std::size_t{32} << 20;

class CublasGemmEx {
 public:
  explicit CublasGemmEx(Workspace& workspace);  // `workspace` must outlive this object

  // False where a dimension exceeds cublasGemmEx's 32-bit int arguments.
  static bool supports(const Gemm& g) noexcept;

  // D = op(A) op(B) + beta D (alpha 1), enqueued on `stream`, with `workspace_bytes` of the shared
  // workspace for cuBLAS. Throws harness::LibraryError (cuBLAS) or harness::OutOfMemoryError.
  void run(const Gemm& g, const void* a, const void* b, void* d, float beta, std::size_t workspace_bytes,
           harness::Stream& stream);

 private:
  cublasHandle_t handle();

  Workspace& workspace_;
  LibraryHandle<cublasHandle_t, cublasDestroy> handle_;
};

}  // namespace gpuscale::workloads
