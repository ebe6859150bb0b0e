// The cpu layers through the public interface: the factory, types, accumulation and the utilities.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"
#include "harness/HalfFloat.hpp"
#include "workloads/layers/ContextFactory.hpp"
#include "workloads/layers/CpuReference.hpp"
#include "workloads/layers/HostConvert.hpp"
#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {
namespace {

using harness::DataType;

struct Fixture {
  std::unique_ptr<harness::Backend> backend = harness::make_cpu_backend();
  std::unique_ptr<harness::Stream> stream = backend->create_stream(harness::StreamPriority::normal);
  std::unique_ptr<ComputeContext> ctx = make_compute_context(*backend, *stream, TuningOptions{}, 30);
  std::unique_ptr<harness::Buffer> filled(std::size_t bytes, DataType type, std::uint64_t seed) {
    auto b = backend->allocate(bytes);
    ctx->fill_uniform(b->data(), type, bytes / harness::size_of(type), seed, 1.0f, *stream);
    return b;
  }
};

TEST(CpuLayer, Bf16LinearRoundsInputsAndOutputs) {
  Fixture f;
  const LinearShape s{4, 6, 8};
  const LayerSpec spec{s, Precision::bf16};
  auto layer = f.ctx->create_layer(spec);
  auto x = f.filled(x_bytes(spec), DataType::bfloat16, 1), w = f.filled(w_bytes(spec), DataType::bfloat16, 2);
  auto y = f.backend->allocate(y_bytes(spec));
  layer->forward(*x, *w, *y, *f.stream);
  const auto xd = to_double(x->data(), DataType::bfloat16, 32), wd = to_double(w->data(), DataType::bfloat16, 48);
  std::vector<double> want(24);
  reference::linear_forward(s, xd.data(), wd.data(), want.data());
  round_to(want, DataType::bfloat16);
  EXPECT_EQ(to_double(y->data(), DataType::bfloat16, 24), want);
}

TEST(CpuLayer, WeightGradientAccumulatesInFloat) {
  Fixture f;
  const LayerSpec spec{Conv2dShape{2, 3, 5, 5, 4, 3, 3, 1, 1, 1, Layout::nhwc}, Precision::fp16, std::nullopt,
                       DataType::float32};
  auto layer = f.ctx->create_layer(spec);
  auto x = f.filled(x_bytes(spec), DataType::float16, 3), dy = f.filled(dy_bytes(spec), DataType::float16, 4);
  auto dw = f.backend->allocate(dw_bytes(spec));
  layer->backward_weight(*dy, *x, *dw, Accumulate::overwrite, *f.stream);
  const auto once = to_double(dw->data(), DataType::float32, dw_bytes(spec) / 4);
  layer->backward_weight(*dy, *x, *dw, Accumulate::add, *f.stream);
  const auto twice = to_double(dw->data(), DataType::float32, dw_bytes(spec) / 4);
  for (std::size_t i = 0; i < once.size(); ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(twice[i]), static_cast<float>(2 * once[i]));
}

TEST(CpuLayer, FillIsDeterministicAndPoisonIsNaN) {
  Fixture f;
  auto a = f.filled(4096, DataType::float32, 7), b = f.filled(4096, DataType::float32, 7);
  auto c = f.filled(4096, DataType::float32, 8);
  const auto av = to_double(a->data(), DataType::float32, 1024);
  EXPECT_EQ(av, to_double(b->data(), DataType::float32, 1024));
  EXPECT_NE(av, to_double(c->data(), DataType::float32, 1024));
  double sum = 0;
  for (double v : av) {
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    sum += v;
  }
  EXPECT_LT(std::abs(sum / 1024), 0.1);  // centred
  for (DataType t : {DataType::float32, DataType::float16, DataType::bfloat16}) {
    f.ctx->poison(a->data(), 64, *f.stream);
    EXPECT_TRUE(std::isnan(to_double(a->data(), t, 1)[0])) << harness::to_string(t);
  }
}

TEST(CpuLayer, ConvertCastsAndAdds) {
  Fixture f;
  auto src = f.filled(64, DataType::float32, 9);
  auto dst = f.backend->allocate(32);
  f.ctx->convert(src->data(), DataType::float32, dst->data(), DataType::bfloat16, 16, Accumulate::overwrite, *f.stream);
  auto want = to_double(src->data(), DataType::float32, 16);
  round_to(want, DataType::bfloat16);
  EXPECT_EQ(to_double(dst->data(), DataType::bfloat16, 16), want);
}

TEST(CpuLayer, RejectsBadSpecsAndSmallBuffers) {
  Fixture f;
  EXPECT_THROW(f.ctx->create_layer({LinearShape{0, 1, 1}, Precision::fp32}), harness::UsageError);
  auto layer = f.ctx->create_layer({LinearShape{4, 4, 4}, Precision::fp32});
  auto small = f.backend->allocate(8), ok = f.backend->allocate(64);
  EXPECT_THROW(layer->forward(*small, *ok, *ok, *f.stream), harness::RuntimeError);
}

}  // namespace
}  // namespace gpuscale::workloads
