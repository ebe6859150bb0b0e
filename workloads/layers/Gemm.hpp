#pragma once
// One column-major GEMM D = op(A) op(B) (+ D) of a Linear pass, as both cuBLAS paths (cuBLASLt and
// cublasGemmEx) take it, and the cuBLAS types for it. CUDA-only: included by the matmul layer's
// files, which CMake compiles only with the CUDA backend.
//   forward          Y^T  [N,M] = W   X^T    A = W (op T), B = X             m = N, n = M, k = K
//   backward data    dX^T [K,M] = W^T dY^T   A = W,        B = dY            m = K, n = M, k = N
//   backward weight  dW^T [K,N] = X^T dY     A = X,        B = dY (op T)     m = K, n = N, k = M
// The row-major tensors of the layer are read as their column-major transposes; every operand is
// dense, so a leading dimension is the stored row count.
#include <cstdint>
#include <string>

#include <cublas_api.h>
#include <library_types.h>

#include "harness/DataType.hpp"
#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

struct Gemm {
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  harness::DataType ab_type{}, d_type{};  // A and B; C = D
  Precision precision{};
  int sm_count_target = 0;  // cuBLASLt's SM count target; 0: every SM (LayerSpec::backward_sm_margin)

  std::int64_t lda() const noexcept { return trans_a ? k : m; }
  std::int64_t ldb() const noexcept { return trans_b ? n : k; }
  std::int64_t ldc() const noexcept { return m; }
  std::string key() const;  // identifies the problem in an algorithm cache
};

Gemm gemm_for(const LayerSpec& spec, Pass pass);

cudaDataType_t cuda_type(harness::DataType type);
// CUBLAS_COMPUTE_32F, or CUBLAS_COMPUTE_32F_FAST_TF32 for tf32 (fp32 accumulation in every precision).
cublasComputeType_t compute_type(Precision precision);
cublasOperation_t operation(bool transpose);

}  // namespace gpuscale::workloads
