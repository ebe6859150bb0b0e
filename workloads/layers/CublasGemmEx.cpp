#include "workloads/layers/CublasGemmEx.hpp"

#include <limits>

#include "harness/LibraryCall.hpp"

namespace gpuscale::workloads {

CublasGemmEx::CublasGemmEx(Workspace& workspace) : workspace_(workspace) {}

cublasHandle_t CublasGemmEx::handle() {
  if (!handle_.value) GPUSCALE_CUBLAS_OK(cublasCreate(&handle_.value));
  return handle_.value;
}

bool CublasGemmEx::supports(const Gemm& g) noexcept {
  if (g.sm_count_target) return false;  // cuBLAS sets it per handle, not per call: cuBLASLt's alone
  constexpr std::int64_t kMax = std::numeric_limits<int>::max();
  for (std::int64_t v : {g.m, g.n, g.k, g.lda(), g.ldb(), g.ldc()})
    if (v > kMax) return false;
  return true;
}

void CublasGemmEx::run(const Gemm& g, const void* a, const void* b, void* d, float beta, std::size_t workspace_bytes,
                       harness::Stream& stream) {
  // cublasSetStream resets the handle to cuBLAS's own workspace pool, so ours is set after it, and on
  // every call: growing the shared workspace (for another layer's algorithm) moves it.
  GPUSCALE_CUBLAS_OK(cublasSetStream(handle(), static_cast<cudaStream_t>(stream.native())));
  GPUSCALE_CUBLAS_OK(cublasSetWorkspace(handle_.value, workspace_.ensure(workspace_bytes), workspace_bytes));
  const float alpha = 1.0f;
  const auto as_int = [](std::int64_t v) { return static_cast<int>(v); };  // in range: supports(g)
  GPUSCALE_CUBLAS_OK(cublasGemmEx(handle_.value, operation(g.trans_a), operation(g.trans_b), as_int(g.m),
                                     as_int(g.n), as_int(g.k), &alpha, a, cuda_type(g.ab_type), as_int(g.lda()), b,
                                     cuda_type(g.ab_type), as_int(g.ldb()), &beta, d, cuda_type(g.d_type),
                                     as_int(g.ldc()), compute_type(g.precision), CUBLAS_GEMM_DEFAULT_TENSOR_OP));
}

}  // namespace gpuscale::workloads
