// Needs a GPU (label gpu). Every layer x precision x layout through cuBLASLt / cuDNN against the
// double-precision reference, including float outputs from half inputs, accumulation into dW, both
// algorithm searches, the fill kernel agreeing with the host, and out-of-memory as a typed error.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/CudaBackend.hpp"
#include "harness/Error.hpp"
#include "workloads/HostConvert.hpp"
#include "workloads/RandomValue.hpp"
#include "workloads/ReferenceCheck.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

struct Gpu {
  std::unique_ptr<harness::Backend> backend = harness::make_cuda_backend(0, 60);
  std::unique_ptr<harness::Stream> stream = backend->create_stream(harness::StreamPriority::normal);
  std::unique_ptr<ComputeContext> ctx;
  explicit Gpu(AlgoSearch search = AlgoSearch::heuristic) {
    TuningOptions t;
    t.conv_search = search;
    ctx = make_compute_context(*backend, *stream, t);
  }
};

void expect_all_pass(Gpu& gpu, const LayerSpec& spec) {
  const auto checks = check_against_reference(*gpu.ctx, *gpu.stream, spec, 7, 60);
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
    b.download(once.data(), *dw, dw_bytes(spec));
    layer->backward_weight(*dy, *x, *dw, Accumulate::add, *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    b.download(twice.data(), *dw, dw_bytes(spec));
    for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(twice[i], 2 * once[i], 1e-5 * (1 + std::abs(once[i]))) << i;
  }
}

TEST(LayerGpu, FillMatchesTheHostAndPoisonIsNaN) {
  Gpu gpu;
  for (DataType t : {DataType::float32, DataType::float16, DataType::bfloat16}) {
    const std::size_t n = 100003;
    auto buf = gpu.backend->allocate(n * harness::size_of(t));
    gpu.ctx->fill_uniform(buf->data(), t, n, 42, 0.5f, *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    std::vector<unsigned char> bytes(buf->bytes());
    gpu.backend->download(bytes.data(), *buf, bytes.size());
    const auto got = to_double(bytes.data(), t, n);
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = uniform_value(42, i, 0.5f);
    round_to(want, t);
    EXPECT_EQ(got, want) << harness::to_string(t);
    gpu.ctx->poison(buf->data(), buf->bytes(), *gpu.stream);
    gpu.stream->synchronize(harness::Deadline::after(60), "test");
    gpu.backend->download(bytes.data(), *buf, bytes.size());
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
