// run_compute_item on the cpu context, and through a fake context that runs out of memory: a
// skipped record with the reason, and the barrier still called exactly once.
#include "workloads/ComputeBench.hpp"

#include <gtest/gtest.h>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"

namespace gpuscale::workloads {
namespace {

struct Cpu {
  std::unique_ptr<harness::Backend> backend = harness::make_cpu_backend(10);
  std::unique_ptr<harness::Stream> stream = backend->create_stream(harness::StreamPriority::normal);
  std::unique_ptr<ComputeContext> ctx = make_compute_context(*backend, *stream, TuningOptions{});
};

BenchOptions options(int& barriers) {
  BenchOptions o;
  o.iterations = 4;
  o.warmup = 1;
  o.gpu = "cpu";
  o.rank = 3;
  o.before_timing = [&barriers] { ++barriers; };
  return o;
}

TEST(ComputeBench, MeasuresAllThreePassesAfterTheCheck) {
  Cpu cpu;
  int barriers = 0;
  const NamedShape shape{"user", "conv", Conv2dShape{2, 4, 6, 6, 3, 3, 3, 1, 1, 1, Layout::nhwc}};
  const auto records = run_compute_item(*cpu.ctx, *cpu.stream, shape, Precision::bf16, options(barriers));
  EXPECT_EQ(barriers, 1);
  ASSERT_EQ(records.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& r = records[i];
    EXPECT_EQ(r.pass, to_string(kAllPasses[i]));
    EXPECT_EQ(r.rank, 3);
    EXPECT_EQ(r.precision, "bf16");
    EXPECT_EQ(r.samples_s.size(), 4u);
    EXPECT_GT(r.tflops, 0);
    EXPECT_TRUE(r.check.ran && r.check.passed) << r.check.relative_error;
    EXPECT_DOUBLE_EQ(r.flops, 2.0 * 2 * 3 * 6 * 6 * 4 * 9);
    EXPECT_TRUE(r.skipped_reason.empty());
  }
}

// Delegates to the cpu context but fails every allocation of layers, as a full GPU would.
class OutOfMemoryContext final : public ComputeContext {
 public:
  explicit OutOfMemoryContext(ComputeContext& inner) : inner_(inner) {}
  harness::Backend& backend() noexcept override { return inner_.backend(); }
  std::unique_ptr<Layer> create_layer(const LayerSpec&) override {
    throw harness::OutOfMemoryError("CUDA", "cudaErrorMemoryAllocation", "out of memory (injected)");
  }
  void fill_uniform(void* d, harness::DataType t, std::size_t n, std::uint64_t s, float k,
                    harness::Stream& st) override {
    inner_.fill_uniform(d, t, n, s, k, st);
  }
  void upload(void* d, const void* s, std::size_t n, harness::Stream& st) override { inner_.upload(d, s, n, st); }
  void poison(void* d, std::size_t n, harness::Stream& st) override { inner_.poison(d, n, st); }
  void convert(const void* s, harness::DataType a, void* d, harness::DataType b, std::size_t n, Accumulate m,
               harness::Stream& st) override {
    inner_.convert(s, a, d, b, n, m, st);
  }
  std::size_t workspace_bytes() const noexcept override { return 0; }
  void shrink_workspace(std::size_t) override {}

 private:
  ComputeContext& inner_;
};

TEST(ComputeBench, OutOfMemoryIsASkippedRecordAndKeepsBarriersMatched) {
  Cpu cpu;
  OutOfMemoryContext oom(*cpu.ctx);
  int barriers = 0;
  const NamedShape shape{"user", "matmul", LinearShape{8, 8, 8}};
  const auto records = run_compute_item(oom, *cpu.stream, shape, Precision::fp32, options(barriers));
  EXPECT_EQ(barriers, 1);
  ASSERT_EQ(records.size(), 3u);
  for (const auto& r : records) {
    EXPECT_NE(r.skipped_reason.find("out of memory"), std::string::npos) << r.skipped_reason;
    EXPECT_TRUE(r.samples_s.empty());
  }
}

}  // namespace
}  // namespace gpuscale::workloads
