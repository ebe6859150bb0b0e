// Needs a GPU (label gpu). Every layer x precision x layout through cuBLASLt / cuDNN against the
// double-precision reference, including float outputs from half inputs, accumulation into dW, every
// cuDNN algorithm search (the graph API's plans forced alone), the fill kernel agreeing with the host,
// and out-of-memory as a typed error.
// Each cuBLAS path of Linear (cuBLASLt, cublasGemmEx) is also forced alone, so that both are proven
// whichever wins the timing.
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "harness/CudaBackend.hpp"
#include "harness/Error.hpp"
#include "workloads/layers/ContextFactory.hpp"
#include "workloads/layers/CpuReference.hpp"
#include "workloads/layers/HostConvert.hpp"
#include "workloads/layers/RandomValue.hpp"
#include "workloads/layers/ReferenceVerification.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

struct Gpu {
  std::unique_ptr<harness::Backend> backend = harness::make_cuda_backend(0);
  std::unique_ptr<harness::Stream> stream = backend->create_stream(harness::StreamPriority::normal);
  std::unique_ptr<ComputeContext> ctx;
  explicit Gpu(AlgoSearch search = AlgoSearch::heuristic, MatmulPath path = MatmulPath::fastest)
      : Gpu(tuning(search, path)) {}
  explicit Gpu(const TuningOptions& t) : ctx(make_compute_context(*backend, *stream, t, 60)) {}
  static TuningOptions tuning(AlgoSearch search, MatmulPath path) {
    TuningOptions t;
    t.conv_search = search;
    t.matmul_path = path;
    return t;
  }
};

void expect_all_pass(Gpu& gpu, const LayerSpec& spec) {
  const auto checks = verify_against_reference(*gpu.ctx, *gpu.stream, spec, 7, 60);
  for (Pass pass : kAllPasses) {
    const auto& c = checks[static_cast<int>(pass)];
    EXPECT_TRUE(c.passed) << describe(spec.shape) << " " << to_string(spec.precision) << " " << to_string(pass)
                          << ": relative error " << c.relative_error << " limit " << c.limit;
  }
}

const LayerShape kShapes[] = {
    LinearShape{256, 192, 320},
    LinearShape{33, 17, 65},  // odd sizes: unaligned leading dimensions for half types
    Conv2dShape{4, 32, 17, 17, 48, 3, 3, 2, 1, 1, Layout::nchw},
    Conv2dShape{4, 32, 17, 17, 48, 3, 3, 2, 1, 1, Layout::nhwc},
    Conv2dShape{2, 16, 12, 12, 24, 3, 3, 1, 2, 2, Layout::nhwc},
    Conv2dShape{2, 64, 14, 14, 32, 1, 1, 1, 0, 1, Layout::nchw},
};

TEST(LayerGpu, EveryLayerAndPrecisionMatchesTheReference) {
  Gpu gpu;
  for (const auto& shape : kShapes)
    for (Precision p : kAllPrecisions) expect_all_pass(gpu, {shape, p});
}

TEST(LayerGpu, ExhaustiveSearchToo) {
  Gpu gpu(AlgoSearch::exhaustive);
  for (Precision p : kAllPrecisions) expect_all_pass(gpu, {kShapes[3], p});
}

TEST(LayerGpu, FloatOutputsFromHalfInputs) {
  Gpu gpu;
  for (const auto& shape : {kShapes[0], kShapes[3]})
    for (Precision p : {Precision::fp16, Precision::bf16})
      expect_all_pass(gpu, {shape, p, DataType::float32, DataType::float32});
}

TEST(LayerGpu, WeightGradientAccumulates) {
  Gpu gpu;
  for (const auto& shape : {kShapes[0], kShapes[2]}) {
    const LayerSpec spec{shape, Precision::bf16, std::nullopt, DataType::float32};
    auto layer = gpu.ctx->create_layer(spec);
    auto& b = *gpu.backend;
    auto x = b.allocate(x_bytes(spec)), dy = b.allocate(dy_bytes(spec)), dw = b.allocate(dw_bytes(spec));
    gpu.ctx->fill_uniform(x->data(), DataType::bfloat16, x_bytes(spec) / 2, 1, 1.0f, *gpu.stream);
    gpu.ctx->fill_uniform(dy->data(), DataType::bfloat16, dy_bytes(spec) / 2, 2, 1.0f, *gpu.stream);
    const std::size_t n = dw_bytes(spec) / 4;
    std::vector<float> once(n), twice(n);
    layer->backward_weight(*dy, *x, *dw, Accumulate::overwrite, *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    b.download(once.data(), *dw, dw_bytes(spec), harness::Deadline::after(60));
    layer->backward_weight(*dy, *x, *dw, Accumulate::add, *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    b.download(twice.data(), *dw, dw_bytes(spec), harness::Deadline::after(60));
    for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(twice[i], 2 * once[i], 1e-5 * (1 + std::abs(once[i]))) << i;
  }
}

// Values as fill_uniform writes them (FillMatchesTheHostAndPoisonIsNaN proves the two agree).
std::vector<double> host_uniform(std::int64_t count, DataType type, std::uint64_t seed) {
  std::vector<double> v(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = uniform_value(seed, i, 1.0f);
  round_to(v, type);
  return v;
}

std::unique_ptr<harness::Buffer> device_uniform(Gpu& gpu, std::int64_t count, DataType type, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(count);
  auto buffer = gpu.backend->allocate(n * harness::size_of(type));
  gpu.ctx->fill_uniform(buffer->data(), type, n, seed, 1.0f, *gpu.stream);
  return buffer;
}

// dW += dY^T X (Accumulate::add) onto a random dW, against dW + the double-precision reference.
double accumulate_error(Gpu& gpu, Layer& layer) {
  const auto& spec = layer.spec();
  const auto& g = spec.shape;
  const auto x = device_uniform(gpu, input_elements(g), input_type(spec), 11);
  const auto dy = device_uniform(gpu, output_elements(g), input_type(spec), 12);
  auto dw = device_uniform(gpu, weight_elements(g), weight_grad_type(spec), 13);
  layer.backward_weight(*dy, *x, *dw, Accumulate::add, *gpu.stream);
  gpu.stream->synchronize(harness::Deadline::after(60), "test");
  std::vector<unsigned char> bytes(dw->bytes());
  gpu.backend->download(bytes.data(), *dw, bytes.size(), harness::Deadline::after(60));
  const auto got = to_double(bytes.data(), weight_grad_type(spec), static_cast<std::size_t>(weight_elements(g)));

  const auto x_h = host_uniform(input_elements(g), input_type(spec), 11);
  const auto dy_h = host_uniform(output_elements(g), input_type(spec), 12);
  auto want = host_uniform(weight_elements(g), weight_grad_type(spec), 13);
  std::vector<double> product(want.size());
  reference::run(Pass::backward_weight, g, dy_h.data(), x_h.data(), product.data());
  for (std::size_t i = 0; i < want.size(); ++i) want[i] += product[i];
  return relative_error(got, want);
}

// Only graph API plans may win: each convolution, precision and pass runs one, or the layer throws.
// Accumulating into dW takes the legacy algorithm beside the plan (a plan overwrites): checked too.
TEST(LayerGpu, GraphApiPlansMatchTheReference) {
  Gpu gpu(AlgoSearch::graph);
  for (const auto& shape : kShapes) {
    if (!std::holds_alternative<Conv2dShape>(shape)) continue;
    for (Precision p : kAllPrecisions) {
      const LayerSpec spec{shape, p};
      expect_all_pass(gpu, spec);
      const auto layer = gpu.ctx->create_layer(spec);
      for (Pass pass : kAllPasses)
        EXPECT_EQ(layer->algorithm(pass).name.rfind("graph engine", 0), 0u)
            << describe(shape) << " " << to_string(p) << " " << to_string(pass) << ": " << layer->algorithm(pass).name;
      const double error = accumulate_error(gpu, *layer);
      EXPECT_TRUE(within_limit(error, relative_error_limit(p)))
          << describe(shape) << " " << to_string(p) << " accumulate: relative error " << error;
    }
  }
  expect_all_pass(gpu, {kShapes[3], Precision::bf16, DataType::float32, DataType::float32});  // staged outputs
}

// Engines that compile their kernel at run time, where cuDNN offers them, pass the same checks (one
// shape: compiling takes seconds per plan).
TEST(LayerGpu, RuntimeCompiledPlansMatchTheReference) {
  TuningOptions t = Gpu::tuning(AlgoSearch::graph, MatmulPath::lt);
  t.conv_runtime_compiled = true;
  Gpu gpu(t);
  for (Precision p : {Precision::fp32, Precision::bf16}) expect_all_pass(gpu, {kShapes[3], p});
}

// Tuning ranked again settled (--tune-window-ms; short windows here) still gives layers that match the
// reference: cuBLASLt with its swizzle twins, cuDNN's graph plans alone and beside find's winner.
TEST(LayerGpu, SettledTuningMatchesTheReference) {
  for (AlgoSearch search : {AlgoSearch::graph, AlgoSearch::exhaustive}) {
    TuningOptions t = Gpu::tuning(search, MatmulPath::fastest);
    t.settled_window_s = 0.005;
    Gpu gpu(t);
    for (const auto& shape : {kShapes[0], kShapes[3]})
      for (Precision p : {Precision::fp32, Precision::bf16}) expect_all_pass(gpu, {shape, p});
  }
}

// With an SM margin the backward GEMMs are cuBLASLt's, tuned for fewer SMs (cublasGemmEx is left out:
// cuBLAS sets its SM target per handle), and still match the reference.
TEST(LayerGpu, BackwardSmMarginMatchesTheReference) {
  Gpu gpu(AlgoSearch::heuristic, MatmulPath::fastest);
  for (Precision p : kAllPrecisions) {
    LayerSpec spec{kShapes[0], p};
    spec.backward_sm_margin = 64;
    expect_all_pass(gpu, spec);
    const auto layer = gpu.ctx->create_layer(spec);
    for (Pass pass : {Pass::backward_data, Pass::backward_weight})
      EXPECT_EQ(layer->algorithm(pass).name.rfind("cublasLt ", 0), 0u) << to_string(pass) << " ran "
                                                                       << layer->algorithm(pass).name;
  }
}

class MatmulPathGpu : public testing::TestWithParam<MatmulPath> {};

TEST_P(MatmulPathGpu, EveryPassAndPrecisionMatchesTheReference) {
  Gpu gpu(AlgoSearch::heuristic, GetParam());
  const std::string prefix = GetParam() == MatmulPath::gemmex ? "cublasGemmEx " : "cublasLt ";
  for (const auto& shape : {kShapes[0], kShapes[1]})
    for (Precision p : kAllPrecisions) {
      std::vector<LayerSpec> specs{{shape, p}};
      if (storage_type(p) != DataType::float32) specs.push_back({shape, p, DataType::float32, DataType::float32});
      for (const auto& spec : specs) {
        expect_all_pass(gpu, spec);
        auto layer = gpu.ctx->create_layer(spec);
        for (Pass pass : kAllPasses)
          EXPECT_EQ(layer->algorithm(pass).name.rfind(prefix, 0), 0u)
              << to_string(pass) << " ran " << layer->algorithm(pass).name;
        const double error = accumulate_error(gpu, *layer);
        EXPECT_TRUE(within_limit(error, relative_error_limit(p)))
            << describe(shape) << " " << to_string(p) << " dW " << harness::to_string(weight_grad_type(spec))
            << " accumulate: relative error " << error;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(LayerGpu, MatmulPathGpu, testing::Values(MatmulPath::lt, MatmulPath::gemmex),
                         [](const auto& test) { return std::string(to_string(test.param)); });

TEST(LayerGpu, FillMatchesTheHostAndPoisonIsNaN) {
  Gpu gpu;
  for (DataType t : {DataType::float32, DataType::float16, DataType::bfloat16}) {
    const std::size_t n = 100003;
    auto buf = gpu.backend->allocate(n * harness::size_of(t));
    gpu.ctx->fill_uniform(buf->data(), t, n, 42, 0.5f, *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    std::vector<unsigned char> bytes(buf->bytes());
    gpu.backend->download(bytes.data(), *buf, bytes.size(), harness::Deadline::after(60));
    const auto got = to_double(bytes.data(), t, n);
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = uniform_value(42, i, 0.5f);
    round_to(want, t);
    EXPECT_EQ(got, want) << harness::to_string(t);
    gpu.ctx->poison(buf->data(), buf->bytes(), *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    gpu.backend->download(bytes.data(), *buf, bytes.size(), harness::Deadline::after(60));
    EXPECT_TRUE(std::isnan(to_double(bytes.data(), t, 1)[0]));
  }
}

TEST(LayerGpu, HugeShapeIsOutOfMemoryNotACrash) {
  Gpu gpu;
  // 2^31 - 1 elements per operand in fp32 is 8 GiB each; 40 such layers' tensors exceed any GPU.
  std::vector<std::unique_ptr<harness::Buffer>> hold;
  EXPECT_THROW(
      {
        for (int i = 0; i < 40; ++i) hold.push_back(gpu.backend->allocate(std::size_t{8} << 30));
      },
      harness::OutOfMemoryError);
  hold.clear();
  expect_all_pass(gpu, {kShapes[0], Precision::fp32});  // and the device still works afterwards
}

}  // namespace
}  // namespace gpuscale::workloads
