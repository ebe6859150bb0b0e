#include "harness/CublasLibrary.hpp"

#include <dlfcn.h>

#include <string>

#include <cublasLt.h>
#include <cublas_v2.h>

#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

std::string soname(const char* stem) { return std::string(stem) + ".so." + std::to_string(CUBLAS_VER_MAJOR); }

class Library {
 public:
  explicit Library(const char* stem) : name_(soname(stem)), handle_(::dlopen(name_.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) why_ = ::dlerror();
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  // Kept open for the process's life: handles made through it outlive any owner of this object.

  template <class Function>
  Function function(const char* symbol) const {
    if (!handle_) throw LibraryError(name_, "not loaded", "cannot load " + name_ + " for " + symbol + ": " + why_);
    void* address = ::dlsym(handle_, symbol);
    if (!address) throw LibraryError(name_, "no symbol", name_ + " has no " + symbol);
    return reinterpret_cast<Function>(address);
  }

 private:
  std::string name_;
  void* handle_;
  std::string why_;
};

const Library& cublas_lt() {
  static const Library library("libcublasLt");
  return library;
}

const Library& cublas() {
  static const Library library("libcublas");
  return library;
}

}  // namespace

bool cublas_lt_loaded() {
  void* handle = ::dlopen(soname("libcublasLt").c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return false;
  ::dlclose(handle);
  return true;
}

}  // namespace gpuscale::harness

// Each function: its address looked up once (a failed lookup throws, and the next call tries again),
// then called with the arguments as given.
#define GPUSCALE_CUBLAS_CALL(library, name, ...)                                                \
  static const auto function = ::gpuscale::harness::library().function<decltype(&name)>(#name); \
  return function(__VA_ARGS__)

extern "C" {

// cuBLASLt
cublasStatus_t CUBLASWINAPI cublasLtCreate(cublasLtHandle_t* handle) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtCreate, handle);
}
cublasStatus_t CUBLASWINAPI cublasLtDestroy(cublasLtHandle_t handle) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtDestroy, handle);
}
const char* CUBLASWINAPI cublasLtGetStatusName(cublasStatus_t status) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtGetStatusName, status);
}
const char* CUBLASWINAPI cublasLtGetStatusString(cublasStatus_t status) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtGetStatusString, status);
}
size_t CUBLASWINAPI cublasLtGetVersion(void) { GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtGetVersion); }
cublasStatus_t CUBLASWINAPI cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                                           const void* alpha, const void* A, cublasLtMatrixLayout_t Adesc,
                                           const void* B, cublasLtMatrixLayout_t Bdesc, const void* beta, const void* C,
                                           cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                                           const cublasLtMatmulAlgo_t* algo, void* workspace,
                                           size_t workspaceSizeInBytes, cudaStream_t stream) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmul, lightHandle, computeDesc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc,
                       D, Ddesc, algo, workspace, workspaceSizeInBytes, stream);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoCheck(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                                    cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                                    cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                                    const cublasLtMatmulAlgo_t* algo,
                                                    cublasLtMatmulHeuristicResult_t* result) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulAlgoCheck, lightHandle, operationDesc, Adesc, Bdesc, Cdesc, Ddesc, algo,
                       result);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t* algo,
                                                                 cublasLtMatmulAlgoConfigAttributes_t attr, void* buf,
                                                                 size_t sizeInBytes, size_t* sizeWritten) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulAlgoConfigGetAttribute, algo, attr, buf, sizeInBytes, sizeWritten);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoConfigSetAttribute(cublasLtMatmulAlgo_t* algo,
                                                                 cublasLtMatmulAlgoConfigAttributes_t attr,
                                                                 const void* buf, size_t sizeInBytes) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulAlgoConfigSetAttribute, algo, attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc, cublasLtMatrixLayout_t Adesc,
    cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
    cublasLtMatmulPreference_t preference, int requestedAlgoCount,
    cublasLtMatmulHeuristicResult_t heuristicResultsArray[], int* returnAlgoCount) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulAlgoGetHeuristic, lightHandle, operationDesc, Adesc, Bdesc, Cdesc,
                       Ddesc, preference, requestedAlgoCount, heuristicResultsArray, returnAlgoCount);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* matmulDesc, cublasComputeType_t computeType,
                                                     cudaDataType_t scaleType) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulDescCreate, matmulDesc, computeType, scaleType);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulDescDestroy, matmulDesc);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                           cublasLtMatmulDescAttributes_t attr, const void* buf,
                                                           size_t sizeInBytes) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulDescSetAttribute, matmulDesc, attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulPreferenceCreate, pref);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulPreferenceDestroy, pref);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                                 cublasLtMatmulPreferenceAttributes_t attr,
                                                                 const void* buf, size_t sizeInBytes) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatmulPreferenceSetAttribute, pref, attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* matLayout, cudaDataType type,
                                                       uint64_t rows, uint64_t cols, int64_t ld) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatrixLayoutCreate, matLayout, type, rows, cols, ld);
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
  GPUSCALE_CUBLAS_CALL(cublas_lt, cublasLtMatrixLayoutDestroy, matLayout);
}

// cuBLAS (cublas_v2.h names the _v2 entry points)
cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
  GPUSCALE_CUBLAS_CALL(cublas, cublasCreate_v2, handle);
}
cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
  GPUSCALE_CUBLAS_CALL(cublas, cublasDestroy_v2, handle);
}
const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) {
  GPUSCALE_CUBLAS_CALL(cublas, cublasGetStatusName, status);
}
const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
  GPUSCALE_CUBLAS_CALL(cublas, cublasGetStatusString, status);
}
cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
  GPUSCALE_CUBLAS_CALL(cublas, cublasSetStream_v2, handle, streamId);
}
cublasStatus_t CUBLASWINAPI cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t workspaceSizeInBytes) {
  GPUSCALE_CUBLAS_CALL(cublas, cublasSetWorkspace_v2, handle, workspace, workspaceSizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                         int lda, const void* B, cudaDataType Btype, int ldb, const void* beta, void* C,
                                         cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                                         cublasGemmAlgo_t algo) {
  // cublas_api.h overloads it in C++ (an inline taking cudaDataType as the compute type): this one.
  using Function = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                      const void*, cudaDataType, int, const void*, cudaDataType, int, const void*,
                                      void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  static const auto function = ::gpuscale::harness::cublas().function<Function>("cublasGemmEx");
  return function(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                  computeType, algo);
}

}  // extern "C"
