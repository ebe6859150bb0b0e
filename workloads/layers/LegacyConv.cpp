#include "workloads/layers/LegacyConv.hpp"

#include <iterator>

#include "harness/LibraryCall.hpp"
#include "workloads/layers/CudnnGraph.hpp"

namespace gpuscale::workloads {
namespace {

template <class Perf>
std::vector<LegacyCandidate> candidates_of(const Perf* perf, int count) {
  std::vector<LegacyCandidate> out;
  for (int i = 0; i < count; ++i)
    out.push_back({static_cast<int>(perf[i].algo), perf[i].status, perf[i].memory, perf[i].mathType, perf[i].time});
  return out;
}

}  // namespace

std::string legacy_algorithm_name(Pass pass, int algo) {
  static constexpr const char* kForward[] = {
      "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
  static constexpr const char* kData[] = {"ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
  static constexpr const char* kFilter[] = {"ALGO_0",    "ALGO_1", "FFT", "ALGO_3", "WINOGRAD", "WINOGRAD_NONFUSED",
                                            "FFT_TILING"};
  auto pick = [&](const auto& names) {
    return algo >= 0 && algo < static_cast<int>(std::size(names)) ? std::string(names[algo]) : std::to_string(algo);
  };
  return pass == Pass::forward ? pick(kForward) : pass == Pass::backward_data ? pick(kData) : pick(kFilter);
}

LegacyConv::LegacyConv(const LayerSpec& spec) {
  const auto& g = std::get<Conv2dShape>(spec.shape);
  const auto format = g.layout == Layout::nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const auto type = cudnn_data_type(input_type(spec));
  auto i = [](std::int64_t v) { return static_cast<int>(v); };
  GPUSCALE_CUDNN_OK(cudnnCreateTensorDescriptor(&x_.value));
  GPUSCALE_CUDNN_OK(cudnnSetTensor4dDescriptor(x_.value, format, type, i(g.n), i(g.c), i(g.h), i(g.w)));
  GPUSCALE_CUDNN_OK(cudnnCreateTensorDescriptor(&y_.value));
  GPUSCALE_CUDNN_OK(cudnnSetTensor4dDescriptor(y_.value, format, type, i(g.n), i(g.k), i(g.p()), i(g.q())));
  GPUSCALE_CUDNN_OK(cudnnCreateFilterDescriptor(&w_.value));
  GPUSCALE_CUDNN_OK(cudnnSetFilter4dDescriptor(w_.value, type, format, i(g.k), i(g.c), i(g.r), i(g.s)));
  // fp32 must not silently become TF32: FMA math forbids tensor cores for float data.
  const auto math = spec.precision == Precision::fp32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH;
  for (auto& c : conv_) {
    GPUSCALE_CUDNN_OK(cudnnCreateConvolutionDescriptor(&c.value));
    GPUSCALE_CUDNN_OK(cudnnSetConvolution2dDescriptor(c.value, i(g.pad), i(g.pad), i(g.stride), i(g.stride),
                                                         i(g.dilation), i(g.dilation), CUDNN_CROSS_CORRELATION,
                                                         CUDNN_DATA_FLOAT));
    GPUSCALE_CUDNN_OK(cudnnSetConvolutionMathType(c.value, math));
  }
}

void LegacyConv::set_math(Pass pass, cudnnMathType_t math) {
  GPUSCALE_CUDNN_OK(cudnnSetConvolutionMathType(of(pass), math));
}

std::vector<LegacyCandidate> LegacyConv::heuristic(cudnnHandle_t h, Pass pass) const {
  int n = 0;
  if (pass == Pass::forward) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    GPUSCALE_CUDNN_OK(cudnnGetConvolutionForwardAlgorithm_v7(h, x_.value, w_.value, of(pass), y_.value,
                                                                CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, perf));
    return candidates_of(perf, n);
  }
  if (pass == Pass::backward_data) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    GPUSCALE_CUDNN_OK(cudnnGetConvolutionBackwardDataAlgorithm_v7(h, w_.value, y_.value, of(pass), x_.value,
                                                                     CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n, perf));
    return candidates_of(perf, n);
  }
  cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
  GPUSCALE_CUDNN_OK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
      h, x_.value, y_.value, of(pass), w_.value, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n, perf));
  return candidates_of(perf, n);
}

std::vector<LegacyCandidate> LegacyConv::find(cudnnHandle_t h, Pass pass, const ConvOperands& o, void* workspace,
                                              std::size_t workspace_bytes) const {
  int n = 0;
  if (pass == Pass::forward) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    GPUSCALE_CUDNN_OK(cudnnFindConvolutionForwardAlgorithmEx(h, x_.value, o.a, w_.value, o.b, of(pass),
                                                                y_.value, o.out, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n,
                                                                perf, workspace, workspace_bytes));
    return candidates_of(perf, n);
  }
  if (pass == Pass::backward_data) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    GPUSCALE_CUDNN_OK(cudnnFindConvolutionBackwardDataAlgorithmEx(
        h, w_.value, o.a, y_.value, o.b, of(pass), x_.value, o.out, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n,
        perf, workspace, workspace_bytes));
    return candidates_of(perf, n);
  }
  cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
  GPUSCALE_CUDNN_OK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
      h, x_.value, o.a, y_.value, o.b, of(pass), w_.value, o.out, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n,
      perf, workspace, workspace_bytes));
  return candidates_of(perf, n);
}

void LegacyConv::run(cudnnHandle_t h, Pass pass, int algo, const ConvOperands& o, void* workspace,
                     std::size_t workspace_bytes, float beta) const {
  const float alpha = 1.0f;
  if (pass == Pass::forward) {
    GPUSCALE_CUDNN_OK(cudnnConvolutionForward(h, &alpha, x_.value, o.a, w_.value, o.b, of(pass),
                                                 static_cast<cudnnConvolutionFwdAlgo_t>(algo), workspace,
                                                 workspace_bytes, &beta, y_.value, o.out));
  } else if (pass == Pass::backward_data) {
    GPUSCALE_CUDNN_OK(cudnnConvolutionBackwardData(h, &alpha, w_.value, o.a, y_.value, o.b, of(pass),
                                                      static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), workspace,
                                                      workspace_bytes, &beta, x_.value, o.out));
  } else {
    GPUSCALE_CUDNN_OK(cudnnConvolutionBackwardFilter(h, &alpha, x_.value, o.a, y_.value, o.b, of(pass),
                                                        static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), workspace,
                                                        workspace_bytes, &beta, w_.value, o.out));
  }
}

}  // namespace gpuscale::workloads
