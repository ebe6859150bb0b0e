// Conv2d through cuDNN 9's convolution API (cudnnConvolutionForward / BackwardData / BackwardFilter).
// Algorithms: `heuristic` takes cuDNN's first suggestion that fits the workspace cap (PyTorch's
// default); `exhaustive` runs cudnnFind*Ex on scratch tensors and takes the fastest that fits (like
// torch.backends.cudnn.benchmark). Choices are cached per shape, precision and pass. The whole
// convolution runs in the storage type with fp32 accumulation; float outputs of half precisions are
// produced through a staging tensor and the convert kernel.
#include <cudnn.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/Check.hpp"
#include "workloads/DeviceKernels.hpp"
#include "workloads/LayerFactory.hpp"
#include "workloads/LibraryHandle.hpp"

namespace gpuscale::workloads {
namespace {

cudnnDataType_t cudnn_type(harness::DataType t) {
  switch (t) {
    case harness::DataType::float16:
      return CUDNN_DATA_HALF;
    case harness::DataType::bfloat16:
      return CUDNN_DATA_BFLOAT16;
    default:
      return CUDNN_DATA_FLOAT;
  }
}

std::string algorithm_name(Pass pass, int algo) {
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

// One row of any of cuDNN's three perf structs.
struct Candidate {
  int algo = 0;
  cudnnStatus_t status = CUDNN_STATUS_NOT_SUPPORTED;
  std::size_t memory = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
};

template <class Perf>
std::vector<Candidate> candidates_of(const Perf* perf, int count) {
  std::vector<Candidate> out;
  for (int i = 0; i < count; ++i)
    out.push_back({static_cast<int>(perf[i].algo), perf[i].status, perf[i].memory, perf[i].mathType});
  return out;
}

struct Choice {
  int algo = 0;
  std::size_t workspace_bytes = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
};

// The descriptors of one layer; one convolution descriptor per pass, as each carries its math type.
struct Descriptors {
  LibraryHandle<cudnnTensorDescriptor_t, cudnnDestroyTensorDescriptor> x, y;
  LibraryHandle<cudnnFilterDescriptor_t, cudnnDestroyFilterDescriptor> w;
  LibraryHandle<cudnnConvolutionDescriptor_t, cudnnDestroyConvolutionDescriptor> conv[3];

  explicit Descriptors(const LayerSpec& spec) {
    const auto& g = std::get<Conv2dShape>(spec.shape);
    const auto format = g.layout == Layout::nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
    const auto type = cudnn_type(input_type(spec));
    auto i = [](std::int64_t v) { return static_cast<int>(v); };
    GPUSCALE_CHECK_CUDNN(cudnnCreateTensorDescriptor(&x.value));
    GPUSCALE_CHECK_CUDNN(cudnnSetTensor4dDescriptor(x.value, format, type, i(g.n), i(g.c), i(g.h), i(g.w)));
    GPUSCALE_CHECK_CUDNN(cudnnCreateTensorDescriptor(&y.value));
    GPUSCALE_CHECK_CUDNN(cudnnSetTensor4dDescriptor(y.value, format, type, i(g.n), i(g.k), i(g.p()), i(g.q())));
    GPUSCALE_CHECK_CUDNN(cudnnCreateFilterDescriptor(&w.value));
    GPUSCALE_CHECK_CUDNN(cudnnSetFilter4dDescriptor(w.value, type, format, i(g.k), i(g.c), i(g.r), i(g.s)));
    // fp32 must not silently become TF32: FMA math forbids tensor cores for float data.
    const auto math = spec.precision == Precision::fp32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH;
    for (auto& c : conv) {
      GPUSCALE_CHECK_CUDNN(cudnnCreateConvolutionDescriptor(&c.value));
      GPUSCALE_CHECK_CUDNN(cudnnSetConvolution2dDescriptor(c.value, i(g.pad), i(g.pad), i(g.stride), i(g.stride),
                                                           i(g.dilation), i(g.dilation), CUDNN_CROSS_CORRELATION,
                                                           CUDNN_DATA_FLOAT));
      GPUSCALE_CHECK_CUDNN(cudnnSetConvolutionMathType(c.value, math));
    }
  }
  cudnnConvolutionDescriptor_t of(Pass pass) const { return conv[static_cast<int>(pass)].value; }
};

// The tensors of one call: inputs a, b and the output, in the pass's own order (see execute()).
struct Operands {
  const void* a;
  const void* b;
  void* out;
};

std::vector<Candidate> heuristic(cudnnHandle_t h, const Descriptors& d, Pass pass) {
  int n = 0;
  if (pass == Pass::forward) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    GPUSCALE_CHECK_CUDNN(cudnnGetConvolutionForwardAlgorithm_v7(h, d.x.value, d.w.value, d.of(pass), d.y.value,
                                                                CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, perf));
    return candidates_of(perf, n);
  }
  if (pass == Pass::backward_data) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    GPUSCALE_CHECK_CUDNN(cudnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w.value, d.y.value, d.of(pass), d.x.value,
                                                                     CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n, perf));
    return candidates_of(perf, n);
  }
  cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
  GPUSCALE_CHECK_CUDNN(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
      h, d.x.value, d.y.value, d.of(pass), d.w.value, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n, perf));
  return candidates_of(perf, n);
}

// cudnnFind*Ex: runs every algorithm on the operands; results sorted fastest first.
std::vector<Candidate> find(cudnnHandle_t h, const Descriptors& d, Pass pass, const Operands& o, void* workspace,
                            std::size_t workspace_bytes) {
  int n = 0;
  if (pass == Pass::forward) {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    GPUSCALE_CHECK_CUDNN(cudnnFindConvolutionForwardAlgorithmEx(h, d.x.value, o.a, d.w.value, o.b, d.of(pass),
                                                                d.y.value, o.out, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n,
                                                                perf, workspace, workspace_bytes));
    return candidates_of(perf, n);
  }
  if (pass == Pass::backward_data) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    GPUSCALE_CHECK_CUDNN(cudnnFindConvolutionBackwardDataAlgorithmEx(
        h, d.w.value, o.a, d.y.value, o.b, d.of(pass), d.x.value, o.out, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n,
        perf, workspace, workspace_bytes));
    return candidates_of(perf, n);
  }
  cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
  GPUSCALE_CHECK_CUDNN(cudnnFindConvolutionBackwardFilterAlgorithmEx(
      h, d.x.value, o.a, d.y.value, o.b, d.of(pass), d.w.value, o.out, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n,
      perf, workspace, workspace_bytes));
  return candidates_of(perf, n);
}

// forward: a = x, b = w, out = y; backward data: a = w, b = dy, out = dx; backward weight: a = x,
// b = dy, out = dw.
void execute(cudnnHandle_t h, const Descriptors& d, Pass pass, const Choice& c, const Operands& o, void* workspace,
             float beta) {
  const float alpha = 1.0f;
  if (pass == Pass::forward) {
    GPUSCALE_CHECK_CUDNN(cudnnConvolutionForward(h, &alpha, d.x.value, o.a, d.w.value, o.b, d.of(pass),
                                                 static_cast<cudnnConvolutionFwdAlgo_t>(c.algo), workspace,
                                                 c.workspace_bytes, &beta, d.y.value, o.out));
  } else if (pass == Pass::backward_data) {
    GPUSCALE_CHECK_CUDNN(cudnnConvolutionBackwardData(h, &alpha, d.w.value, o.a, d.y.value, o.b, d.of(pass),
                                                      static_cast<cudnnConvolutionBwdDataAlgo_t>(c.algo), workspace,
                                                      c.workspace_bytes, &beta, d.x.value, o.out));
  } else {
    GPUSCALE_CHECK_CUDNN(cudnnConvolutionBackwardFilter(h, &alpha, d.x.value, o.a, d.y.value, o.b, d.of(pass),
                                                        static_cast<cudnnConvolutionBwdFilterAlgo_t>(c.algo), workspace,
                                                        c.workspace_bytes, &beta, d.w.value, o.out));
  }
}

class CudnnFactory;

class CudnnConv2d final : public Layer {
 public:
  CudnnConv2d(CudnnFactory& factory, LayerSpec spec);
  const LayerSpec& spec() const noexcept override { return spec_; }
  AlgorithmChoice algorithm(Pass pass) const override {
    const Choice& c = choices_[static_cast<int>(pass)];
    const bool tensor_ops = c.math == CUDNN_TENSOR_OP_MATH || c.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    return {algorithm_name(pass, c.algo) + (tensor_ops ? " tensor-op" : ""), c.workspace_bytes};
  }
  void forward(const void* x, const void* w, void* y, harness::Stream& stream) override {
    run(Pass::forward, {x, w, y}, output_type(spec_), Accumulate::overwrite, stream);
  }
  void backward_data(const void* dy, const void* w, void* dx, harness::Stream& stream) override {
    run(Pass::backward_data, {w, dy, dx}, output_type(spec_), Accumulate::overwrite, stream);
  }
  void backward_weight(const void* dy, const void* x, void* dw, Accumulate mode, harness::Stream& stream) override {
    run(Pass::backward_weight, {x, dy, dw}, weight_grad_type(spec_), mode, stream);
  }

 private:
  void run(Pass pass, Operands o, harness::DataType out_type, Accumulate mode, harness::Stream& stream);

  CudnnFactory& factory_;
  LayerSpec spec_;
  Descriptors descriptors_;
  Choice choices_[3];
  std::unique_ptr<harness::Buffer> staging_;  // storage-type output when the caller wants float
};

class CudnnFactory final : public LayerFactory {
 public:
  explicit CudnnFactory(DeviceEnv& env) : env_(env) { GPUSCALE_CHECK_CUDNN(cudnnCreate(&handle_.value)); }
  std::unique_ptr<Layer> create(const LayerSpec& spec) override { return std::make_unique<CudnnConv2d>(*this, spec); }
  DeviceEnv& env() { return env_; }
  cudnnHandle_t handle(harness::Stream& stream) {
    GPUSCALE_CHECK_CUDNN(cudnnSetStream(handle_.value, static_cast<cudaStream_t>(stream.native())));
    return handle_.value;
  }
  // The cached choice for this pass of this spec, searching first if needed.
  Choice choose(const LayerSpec& spec, const Descriptors& d, Pass pass);

 private:
  Choice search(const LayerSpec& spec, const Descriptors& d, Pass pass, const std::vector<Candidate>& suggested);

  DeviceEnv& env_;
  LibraryHandle<cudnnHandle_t, cudnnDestroy> handle_;
  std::map<std::string, Choice> cache_;
};

// The first candidate that ran and fits the cap (cuDNN lists them best first).
std::optional<Choice> first_fitting(const std::vector<Candidate>& list, std::size_t limit_bytes) {
  for (const auto& c : list)
    if (c.status == CUDNN_STATUS_SUCCESS && c.memory <= limit_bytes) return Choice{c.algo, c.memory, c.math};
  return std::nullopt;
}

Choice CudnnFactory::choose(const LayerSpec& spec, const Descriptors& d, Pass pass) {
  const std::string key =
      describe(spec.shape) + " " + std::string(to_string(spec.precision)) + " " + std::string(to_string(pass));
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const auto suggested = heuristic(handle(env_.stream), d, pass);
  Choice choice;
  if (env_.tuning.conv_search == AlgoSearch::exhaustive) {
    choice = search(spec, d, pass, suggested);
  } else {
    const auto fitting = first_fitting(suggested, env_.tuning.workspace_limit_bytes);
    if (!fitting)
      throw harness::LibraryError("cuDNN", "no algorithm",
                                  harness::error_location() + " cuDNN suggests no algorithm within the " +
                                      std::to_string(env_.tuning.workspace_limit_bytes) + "-byte workspace cap for " +
                                      key);
    choice = *fitting;
  }
  return cache_.emplace(key, choice).first->second;
}

Choice CudnnFactory::search(const LayerSpec& spec, const Descriptors& d, Pass pass,
                            const std::vector<Candidate>& suggested) {
  // Give Find the largest workspace any suggested algorithm wants, up to the cap.
  std::size_t find_bytes = 0;
  for (const auto& c : suggested)
    if (c.status == CUDNN_STATUS_SUCCESS && c.memory <= env_.tuning.workspace_limit_bytes)
      find_bytes = std::max(find_bytes, c.memory);
  const ScratchTensors t = make_scratch(env_.backend, env_.stream, spec);
  const Operands o = pass == Pass::forward         ? Operands{t.x->data(), t.w->data(), t.y->data()}
                     : pass == Pass::backward_data ? Operands{t.w->data(), t.dy->data(), t.dx->data()}
                                                   : Operands{t.x->data(), t.dy->data(), t.dw->data()};
  // Find writes the outputs in the storage type; the scratch outputs may be float (larger), so fine.
  void* workspace = env_.workspace.ensure(find_bytes);
  const auto found = find(handle(env_.stream), d, pass, o, workspace, find_bytes);
  env_.stream.synchronize(harness::Deadline::after(300), "cudnnFind");
  const auto fitting = first_fitting(found, find_bytes);
  if (!fitting)
    throw harness::LibraryError("cuDNN", "no algorithm",
                                harness::error_location() + " cudnnFind found no algorithm that runs for " +
                                    describe(spec.shape) + " " + std::string(to_string(pass)));
  return *fitting;
}

CudnnConv2d::CudnnConv2d(CudnnFactory& factory, LayerSpec spec)
    : factory_(factory), spec_(std::move(spec)), descriptors_(spec_) {
  std::size_t staging_bytes = 0;
  for (Pass pass : kAllPasses) {
    Choice& c = choices_[static_cast<int>(pass)];
    c = factory_.choose(spec_, descriptors_, pass);
    // Run with the math type the algorithm was measured with (fp32 stays FMA: it never lists others).
    if (spec_.precision != Precision::fp32)
      GPUSCALE_CHECK_CUDNN(cudnnSetConvolutionMathType(descriptors_.of(pass), c.math));
    factory_.env().workspace.ensure(c.workspace_bytes);
  }
  const auto storage = input_type(spec_);
  const auto elements = [&](std::int64_t n) { return static_cast<std::size_t>(n) * harness::size_of(storage); };
  if (output_type(spec_) != storage)
    staging_bytes = std::max(elements(output_elements(spec_.shape)), elements(input_elements(spec_.shape)));
  if (weight_grad_type(spec_) != storage)
    staging_bytes = std::max(staging_bytes, elements(weight_elements(spec_.shape)));
  if (staging_bytes) staging_ = factory_.env().backend.allocate(staging_bytes);
}

void CudnnConv2d::run(Pass pass, Operands o, harness::DataType out_type, Accumulate mode, harness::Stream& stream) {
  const Choice& c = choices_[static_cast<int>(pass)];
  void* workspace = factory_.env().workspace.data();
  const cudnnHandle_t h = factory_.handle(stream);
  if (out_type == input_type(spec_)) {
    execute(h, descriptors_, pass, c, o, workspace, mode == Accumulate::add ? 1.0f : 0.0f);
    return;
  }
  void* target = o.out;
  o.out = staging_->data();
  execute(h, descriptors_, pass, c, o, workspace, 0.0f);
  const auto& g = spec_.shape;
  const std::int64_t count = pass == Pass::forward         ? output_elements(g)
                             : pass == Pass::backward_data ? input_elements(g)
                                                           : weight_elements(g);
  kernels::convert(staging_->data(), input_type(spec_), target, out_type, static_cast<std::size_t>(count),
                   mode == Accumulate::add, stream.native());
}

}  // namespace

std::unique_ptr<LayerFactory> make_cudnn_factory(DeviceEnv& env) { return std::make_unique<CudnnFactory>(env); }

}  // namespace gpuscale::workloads
