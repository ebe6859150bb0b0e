#pragma once
// One Conv2d layer's descriptors for cuDNN's legacy convolution API (cudnnGetConvolution*Algorithm_v7,
// cudnnFind*Ex, cudnnConvolutionForward / BackwardData / BackwardFilter), and the calls through them.
// Work runs on the stream set on the handle. Only the cuDNN sources include this header.
#include <cstddef>
#include <string>
#include <vector>

#include <cudnn.h>

#include "workloads/layers/Layer.hpp"
#include "workloads/layers/LibraryHandle.hpp"

namespace gpuscale::workloads {

// The tensors of one call: inputs a, b and the output, in the pass's own order: forward a = x,
// b = w, out = y; backward data a = w, b = dy, out = dx; backward weight a = x, b = dy, out = dw.
struct ConvOperands {
  const void* a;
  const void* b;
  void* out;
};

// One row of any of cuDNN's three perf structs.
struct LegacyCandidate {
  int algo = 0;
  cudnnStatus_t status = CUDNN_STATUS_NOT_SUPPORTED;
  std::size_t memory = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  float time_ms = -1;  // cudnnFind's timing of it (heuristic suggestions: -1)
};

std::string legacy_algorithm_name(Pass pass, int algo);  // "IMPLICIT_PRECOMP_GEMM", "ALGO_1", ...

class LegacyConv {
 public:
  explicit LegacyConv(const LayerSpec& spec);  // math: FMA for fp32 (no TF32), tensor ops otherwise
  // Suggestions, best first (no work on the GPU).
  std::vector<LegacyCandidate> heuristic(cudnnHandle_t h, Pass pass) const;
  // Runs every algorithm on the operands; results fastest first.
  std::vector<LegacyCandidate> find(cudnnHandle_t h, Pass pass, const ConvOperands& o, void* workspace,
                                    std::size_t workspace_bytes) const;
  void set_math(Pass pass, cudnnMathType_t math);  // the math type `algo` was measured with
  void run(cudnnHandle_t h, Pass pass, int algo, const ConvOperands& o, void* workspace, std::size_t workspace_bytes,
           float beta) const;

 private:
  cudnnConvolutionDescriptor_t of(Pass pass) const { return conv_[static_cast<int>(pass)].value; }

  LibraryHandle<cudnnTensorDescriptor_t, cudnnDestroyTensorDescriptor> x_, y_;
  LibraryHandle<cudnnFilterDescriptor_t, cudnnDestroyFilterDescriptor> w_;
  // One per pass: each carries its own math type.
  LibraryHandle<cudnnConvolutionDescriptor_t, cudnnDestroyConvolutionDescriptor> conv_[3];
};

}  // namespace gpuscale::workloads
