// cuBLAS and cuBLASLt are opened by the first call through them, not when the process starts
// (harness/CublasLibrary.hpp). No GPU needed: the calls here ask the libraries about themselves.
#include "harness/CublasLibrary.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <string>

#include <gtest/gtest.h>

namespace gpuscale::harness {
namespace {

// Linked again (CUDA::cublasLt in a target's links), libcublasLt would be in the process before main
// and this fails.
TEST(CublasLibrary, OpensOnTheFirstCallNotAtStart) {
  ASSERT_FALSE(cublas_lt_loaded()) << "libcublasLt was loaded before any cuBLAS call";
  const auto version = cublasLtGetVersion();
  EXPECT_EQ(version / 10000, static_cast<std::size_t>(CUBLAS_VER_MAJOR)) << version;
  EXPECT_TRUE(cublas_lt_loaded());
}

// The arguments reach the library: each status is named by cuBLASLt and by cuBLAS alike.
TEST(CublasLibrary, CallsPassTheirArguments) {
  EXPECT_EQ(std::string(cublasLtGetStatusName(CUBLAS_STATUS_NOT_INITIALIZED)), "CUBLAS_STATUS_NOT_INITIALIZED");
  EXPECT_EQ(std::string(cublasLtGetStatusName(CUBLAS_STATUS_INVALID_VALUE)), "CUBLAS_STATUS_INVALID_VALUE");
  EXPECT_EQ(std::string(cublasGetStatusName(CUBLAS_STATUS_ALLOC_FAILED)), "CUBLAS_STATUS_ALLOC_FAILED");
  EXPECT_FALSE(std::string(cublasGetStatusString(CUBLAS_STATUS_ALLOC_FAILED)).empty());
}

}  // namespace
}  // namespace gpuscale::harness
