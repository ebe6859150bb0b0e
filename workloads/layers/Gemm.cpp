#include "workloads/layers/Gemm.hpp"

#include <algorithm>

#include <cuda_runtime.h>

#include "workloads/layers/DeviceKernels.hpp"

namespace gpuscale::workloads {

std::string Gemm::key() const {
  return std::to_string(trans_a) + std::to_string(trans_b) + " " + std::to_string(m) + "," + std::to_string(n) + "," +
         std::to_string(k) + " " + std::string(to_string(precision)) + " " + std::string(harness::to_string(d_type)) +
         (sm_count_target ? " sms " + std::to_string(sm_count_target) : "");
}

namespace {

int sm_count_target(const LayerSpec& spec, Pass pass) {
  if (pass == Pass::forward || spec.backward_sm_margin <= 0) return 0;
  return std::max(1, kernels::current_device_sms() - spec.backward_sm_margin);
}

}  // namespace

Gemm gemm_for(const LayerSpec& spec, Pass pass) {
  const auto& s = std::get<LinearShape>(spec.shape);
  const auto ab = input_type(spec);
  const int sms = sm_count_target(spec, pass);
  switch (pass) {
    case Pass::forward:
      return {true, false, s.n, s.m, s.k, ab, output_type(spec), spec.precision, sms};
    case Pass::backward_data:
      return {false, false, s.k, s.m, s.n, ab, output_type(spec), spec.precision, sms};
    case Pass::backward_weight:
      break;
  }
  return {false, true, s.k, s.n, s.m, ab, weight_grad_type(spec), spec.precision, sms};
}

cudaDataType_t cuda_type(harness::DataType type) {
  switch (type) {
    case harness::DataType::float16:
      return CUDA_R_16F;
    case harness::DataType::bfloat16:
      return CUDA_R_16BF;
    default:
      return CUDA_R_32F;
  }
}

cublasComputeType_t compute_type(Precision precision) {
  return precision == Precision::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

cublasOperation_t operation(bool transpose) { return transpose ? CUBLAS_OP_T : CUBLAS_OP_N; }

}  // namespace gpuscale::workloads
