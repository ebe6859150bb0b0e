#pragma once
// GPUSCALE_<LIBRARY>_OK(call) wraps a library call that must succeed. This header includes no vendor
// header: each macro expands only in files that already include that library's header. All of them
// throw harness::LibraryError (OutOfMemoryError for allocation failures) with file:line and the call.
#include "harness/Error.hpp"

namespace gpuscale::harness {
const char* nccl_result_name(int result);  // defined with the NCCL communicator
std::string mpi_error_text(int code);      // defined with World
}  // namespace gpuscale::harness

#define GPUSCALE_CUDA_OK(expr)                                                                                         \
  do {                                                                                                                 \
    const cudaError_t gpuscale_rc_ = (expr);                                                                           \
    if (gpuscale_rc_ != cudaSuccess) {                                                                                 \
      ::gpuscale::harness::throw_library_error("CUDA", static_cast<int>(gpuscale_rc_), cudaGetErrorName(gpuscale_rc_), \
                                               cudaGetErrorString(gpuscale_rc_), #expr, __FILE__, __LINE__,            \
                                               gpuscale_rc_ == cudaErrorMemoryAllocation);                             \
    }                                                                                                                  \
  } while (0)

// After every kernel launch.
#define GPUSCALE_LAUNCH_OK() GPUSCALE_CUDA_OK(cudaGetLastError())

// Our communicators are nonblocking, so ncclInProgress is a legitimate answer; callers settle it.
#define GPUSCALE_NCCL_OK(expr)                                                                                        \
  do {                                                                                                                \
    const ncclResult_t gpuscale_rc_ = (expr);                                                                         \
    if (gpuscale_rc_ != ncclSuccess && gpuscale_rc_ != ncclInProgress) {                                              \
      ::gpuscale::harness::throw_library_error("NCCL", static_cast<int>(gpuscale_rc_),                                \
                                               ::gpuscale::harness::nccl_result_name(static_cast<int>(gpuscale_rc_)), \
                                               ncclGetErrorString(gpuscale_rc_), #expr, __FILE__, __LINE__, false);   \
    }                                                                                                                 \
  } while (0)

#define GPUSCALE_CUBLAS_OK(expr)                                                                                       \
  do {                                                                                                                 \
    const cublasStatus_t gpuscale_rc_ = (expr);                                                                        \
    if (gpuscale_rc_ != CUBLAS_STATUS_SUCCESS) {                                                                       \
      ::gpuscale::harness::throw_library_error("cuBLAS", static_cast<int>(gpuscale_rc_),                               \
                                               cublasGetStatusName(gpuscale_rc_), cublasGetStatusString(gpuscale_rc_), \
                                               #expr, __FILE__, __LINE__, gpuscale_rc_ == CUBLAS_STATUS_ALLOC_FAILED); \
    }                                                                                                                  \
  } while (0)

// cuBLASLt alone (libcublasLt, without libcublas): its own status names.
#define GPUSCALE_CUBLASLT_OK(expr)                                                                               \
  do {                                                                                                           \
    const cublasStatus_t gpuscale_rc_ = (expr);                                                                  \
    if (gpuscale_rc_ != CUBLAS_STATUS_SUCCESS) {                                                                 \
      ::gpuscale::harness::throw_library_error("cuBLASLt", static_cast<int>(gpuscale_rc_),                       \
                                               cublasLtGetStatusName(gpuscale_rc_),                              \
                                               cublasLtGetStatusString(gpuscale_rc_), #expr, __FILE__, __LINE__, \
                                               gpuscale_rc_ == CUBLAS_STATUS_ALLOC_FAILED);                      \
    }                                                                                                            \
  } while (0)

#define GPUSCALE_CUDNN_OK(expr)                                                                                  \
  do {                                                                                                           \
    const cudnnStatus_t gpuscale_rc_ = (expr);                                                                   \
    if (gpuscale_rc_ != CUDNN_STATUS_SUCCESS) {                                                                  \
      ::gpuscale::harness::throw_library_error("cuDNN", static_cast<int>(gpuscale_rc_),                          \
                                               cudnnGetErrorString(gpuscale_rc_), "", #expr, __FILE__, __LINE__, \
                                               gpuscale_rc_ == CUDNN_STATUS_ALLOC_FAILED);                       \
    }                                                                                                            \
  } while (0)

#define GPUSCALE_MPI_OK(expr)                                                                                         \
  do {                                                                                                                \
    const int gpuscale_rc_ = (expr);                                                                                  \
    if (gpuscale_rc_ != MPI_SUCCESS) {                                                                                \
      const std::string gpuscale_text_ = ::gpuscale::harness::mpi_error_text(gpuscale_rc_);                           \
      ::gpuscale::harness::throw_library_error("MPI", gpuscale_rc_, "error", gpuscale_text_.c_str(), #expr, __FILE__, \
                                               __LINE__, false);                                                      \
    }                                                                                                                 \
  } while (0)
