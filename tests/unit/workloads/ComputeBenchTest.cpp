// run_compute_item on the cpu context; through a fake context that runs out of memory (a skipped record
// with the reason, and the barrier still called exactly once); and the order of warm-up and timed calls.
#include "workloads/compute/ComputeBench.hpp"

#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"
#include "workloads/layers/ContextFactory.hpp"

namespace gpuscale::workloads {
namespace {

constexpr double kComputeWait_s = 30;  // any single wait (the phase's --timeout in the product)

struct Cpu {
  std::unique_ptr<harness::Backend> backend = harness::make_cpu_backend();
  std::unique_ptr<harness::Stream> stream = backend->create_stream(harness::StreamPriority::normal);
  std::unique_ptr<ComputeContext> ctx = make_compute_context(*backend, *stream, TuningOptions{}, kComputeWait_s);
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
  const auto records =
      run_compute_item(*cpu.ctx, *cpu.stream, shape, Precision::bf16, options(barriers), kComputeWait_s);
  EXPECT_EQ(barriers, 1);
  ASSERT_EQ(records.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& r = records[i];
    EXPECT_EQ(r.pass, to_string(kAllPasses[i]));
    EXPECT_EQ(r.rank, 3);
    EXPECT_EQ(r.precision, "bf16");
    EXPECT_EQ(r.samples_s.size(), 4u);
    EXPECT_GT(r.tflops, 0);
    EXPECT_TRUE(r.verification.ran && r.verification.passed) << r.verification.relative_error;
    EXPECT_DOUBLE_EQ(r.flops, 2.0 * 2 * 3 * 6 * 6 * 4 * 9);
    EXPECT_TRUE(r.skipped_reason.empty());
  }
}

// Delegates everything to the cpu context; the fakes below override create_layer.
class ForwardingContext : public ComputeContext {
 public:
  explicit ForwardingContext(ComputeContext& inner) : inner_(inner) {}
  harness::Backend& backend() noexcept override { return inner_.backend(); }
  std::unique_ptr<Layer> create_layer(const LayerSpec& spec) override { return inner_.create_layer(spec); }
  void fill_uniform(void* d, harness::DataType t, std::size_t n, std::uint64_t s, float k,
                    harness::Stream& st) override {
    inner_.fill_uniform(d, t, n, s, k, st);
  }
  void upload(void* d, const void* s, std::size_t n, harness::Stream& st) override { inner_.upload(d, s, n, st); }
  void poison(void* d, std::size_t n, harness::Stream& st) override { inner_.poison(d, n, st); }
  void hold(harness::Stream& st, double seconds) override { inner_.hold(st, seconds); }
  void convert(const void* s, harness::DataType a, void* d, harness::DataType b, std::size_t n, Accumulate m,
               harness::Stream& st) override {
    inner_.convert(s, a, d, b, n, m, st);
  }
  std::size_t workspace_bytes() const noexcept override { return 0; }
  void shrink_workspace(std::size_t) override {}

 private:
  ComputeContext& inner_;
};

// Fails every allocation of layers, as a full GPU would.
class OutOfMemoryContext final : public ForwardingContext {
 public:
  using ForwardingContext::ForwardingContext;
  std::unique_ptr<Layer> create_layer(const LayerSpec&) override {
    throw harness::OutOfMemoryError("CUDA", "cudaErrorMemoryAllocation", "out of memory (injected)");
  }
};

// Layers that log the passes they run, in order; `last` is the log of the layer created last (the
// timed one: the reference check creates its own first).
class RecordingContext final : public ForwardingContext {
 public:
  using ForwardingContext::ForwardingContext;
  std::unique_ptr<Layer> create_layer(const LayerSpec& spec) override {
    logs.push_back(std::make_shared<std::vector<Pass>>());
    settle_tuning.push_back(spec.settle_tuning);
    return std::make_unique<Recording>(ForwardingContext::create_layer(spec), logs.back());
  }
  const std::vector<Pass>& last() const { return *logs.back(); }
  std::vector<std::shared_ptr<std::vector<Pass>>> logs;
  std::vector<bool> settle_tuning;  // each layer's spec, in creation order
  // Each hold: its seconds, and how many calls the last layer had run when it came.
  void hold(harness::Stream& st, double seconds) override {
    holds.emplace_back(seconds, logs.back()->size());
    ForwardingContext::hold(st, seconds);
  }
  std::vector<std::pair<double, std::size_t>> holds;

 private:
  class Recording final : public Layer {
   public:
    Recording(std::unique_ptr<Layer> inner, std::shared_ptr<std::vector<Pass>> log)
        : inner_(std::move(inner)), log_(std::move(log)) {}
    const LayerSpec& spec() const noexcept override { return inner_->spec(); }
    AlgorithmChoice algorithm(Pass pass) const override { return inner_->algorithm(pass); }
    void forward(const void* x, const void* w, void* y, harness::Stream& s) override {
      log_->push_back(Pass::forward);
      inner_->forward(x, w, y, s);
    }
    void backward_data(const void* dy, const void* w, void* dx, harness::Stream& s) override {
      log_->push_back(Pass::backward_data);
      inner_->backward_data(dy, w, dx, s);
    }
    void backward_weight(const void* dy, const void* x, void* dw, Accumulate m, harness::Stream& s) override {
      log_->push_back(Pass::backward_weight);
      inner_->backward_weight(dy, x, dw, m, s);
    }

   private:
    std::unique_ptr<Layer> inner_;
    std::shared_ptr<std::vector<Pass>> log_;
  };
};

// The timed calls of each pass follow a time-based warm-up of that pass alone: the last three runs of
// equal passes are forward, backward data, backward weight, each longer than the timed calls.
TEST(ComputeBench, EachPassSettlesOnItsOwnLoadBeforeItIsTimed) {
  Cpu cpu;
  RecordingContext rec(*cpu.ctx);
  int barriers = 0;
  BenchOptions o = options(barriers);
  o.warmup_s = 0.002;
  o.check = false;
  const NamedShape shape{"user", "matmul", LinearShape{8, 8, 8}};
  run_compute_item(rec, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  std::vector<std::pair<Pass, int>> runs;
  for (Pass p : rec.last()) {
    if (runs.empty() || runs.back().first != p) runs.emplace_back(p, 0);
    ++runs.back().second;
  }
  ASSERT_GE(runs.size(), 3u);
  const std::vector<std::pair<Pass, int>> tail(runs.end() - 3, runs.end());
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(tail[i].first, kAllPasses[i]);
    EXPECT_GT(tail[i].second, o.iterations) << "pass " << to_string(kAllPasses[i]) << " was not warmed up alone";
  }
  EXPECT_EQ(barriers, 1);
}

// Calls that may be launch-bound on a GPU: each pass's probe call runs behind a hold of its own (so it
// times the run, not the launch), and the timed calls come right behind a hold that covers their
// launches. The bound is set so that every cpu call counts as short (a sanitizer build's 8x8x8 matmul
// can take 100 us); with a bound of 0 no call does, and only the probes are held.
TEST(ComputeBench, ShortCallsAreTimedBehindAHold) {
  Cpu cpu;
  RecordingContext rec(*cpu.ctx);
  int barriers = 0;
  BenchOptions o = options(barriers);
  o.check = false;
  o.launch_bound_s = 10.0;
  const NamedShape shape{"user", "matmul", LinearShape{8, 8, 8}};
  run_compute_item(rec, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  const auto& calls = rec.last();
  ASSERT_EQ(rec.holds.size(), 6u);
  for (std::size_t p = 0; p < 3; ++p) {
    const auto [probe_seconds, probe_at] = rec.holds[2 * p];
    const auto [seconds, at] = rec.holds[2 * p + 1];
    EXPECT_GT(probe_seconds, 0.0);
    EXPECT_EQ(probe_at + 1, at) << "pass " << p << ": the probe call is not the one call between the holds";
    EXPECT_GE(seconds, o.iterations * 100e-6) << "too short to cover the launches";
    // The timed calls of pass p follow the hold; the probe call precedes it.
    const std::size_t timed_end = calls.size() - (2 - p) * static_cast<std::size_t>(o.iterations + 1);
    EXPECT_EQ(at + static_cast<std::size_t>(o.iterations), timed_end) << "pass " << p;
    ASSERT_GE(at, 1u);
    EXPECT_EQ(calls[at - 1], kAllPasses[p]);
    for (std::size_t i = at; i < timed_end; ++i) EXPECT_EQ(calls[i], kAllPasses[p]);
  }
  RecordingContext unheld(*cpu.ctx);
  o.launch_bound_s = 0;
  run_compute_item(unheld, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  ASSERT_EQ(unheld.holds.size(), 3u) << "the probes alone are held";
  for (std::size_t p = 0; p < 3; ++p) EXPECT_EQ(unheld.last()[unheld.holds[p].second], kAllPasses[p]);
}

// --passes fwd: one record, checked (the check runs every pass on a layer of its own), and the timed
// layer runs nothing but the forward.
TEST(ComputeBench, OnlyTheAskedPassesAreTimed) {
  Cpu cpu;
  RecordingContext rec(*cpu.ctx);
  int barriers = 0;
  BenchOptions o = options(barriers);
  o.passes = pass_bit(Pass::forward);
  const NamedShape shape{"user", "matmul", LinearShape{8, 8, 8}};
  const auto records = run_compute_item(rec, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].pass, "fwd");
  EXPECT_EQ(records[0].samples_s.size(), static_cast<std::size_t>(o.iterations));
  EXPECT_TRUE(records[0].verification.ran && records[0].verification.passed);
  ASSERT_EQ(rec.logs.size(), 2u) << "the check's layer, then the timed one";
  EXPECT_EQ(rec.logs[0]->size(), 3u) << "the check runs all three passes once";
  EXPECT_EQ(rec.settle_tuning, (std::vector<bool>{false, true})) << "only the timed layer's tuning settles";
  EXPECT_EQ(rec.last(), std::vector<Pass>(rec.last().size(), Pass::forward));
  EXPECT_EQ(barriers, 1);
  o.passes = pass_bit(Pass::backward_data) | pass_bit(Pass::backward_weight);
  const auto backward = run_compute_item(rec, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  ASSERT_EQ(backward.size(), 2u);
  EXPECT_EQ(backward[0].pass, "bwd_data");
  EXPECT_EQ(backward[1].pass, "bwd_weight");
}

TEST(ComputeBench, TimedCallsFillTheMinimumWindow) {
  EXPECT_EQ(timed_calls(50, 0, 200e-6, false), 50) << "no window asked";
  EXPECT_EQ(timed_calls(50, 1.0, 200e-6, false), 5000);
  EXPECT_EQ(timed_calls(50, 1.0, 0.1, false), 50) << "--iters already spans the window";
  EXPECT_EQ(timed_calls(50, 1.0, 0.03, false), 50);
  EXPECT_EQ(timed_calls(5, 1.0, 0.3, false), 5);
  EXPECT_EQ(timed_calls(2, 1.0, 0.3, false), 4) << "ceil(1.0 / 0.3)";
  EXPECT_EQ(timed_calls(50, 1.0, 1e-6, false), kMaxTimedCalls);
  EXPECT_EQ(timed_calls(50, 1.0, 20e-6, true), 50) << "launch-bound calls keep --iters";
  EXPECT_EQ(timed_calls(50, 1.0, 0, false), 50) << "a probe that read nothing";
}

// With a window, each pass runs as many timed calls as the ranks agreed on: every rank asks once per
// pass with its own count, and the largest is used (here the fake agreement adds 3).
TEST(ComputeBench, AWindowTimesTheAgreedCallCount) {
  Cpu cpu;
  RecordingContext rec(*cpu.ctx);
  int barriers = 0;
  BenchOptions o = options(barriers);
  o.check = false;
  o.launch_bound_s = 0;
  o.min_time_s = 1e-9;  // filled by --iters already: each rank asks for o.iterations
  std::vector<int> asked;
  o.agree_calls = [&asked](int mine) {
    asked.push_back(mine);
    return mine + 3;
  };
  const NamedShape shape{"user", "matmul", LinearShape{8, 8, 8}};
  const auto records = run_compute_item(rec, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  EXPECT_EQ(asked, std::vector<int>(3, o.iterations));
  ASSERT_EQ(records.size(), 3u);
  for (const auto& r : records) EXPECT_EQ(r.samples_s.size(), static_cast<std::size_t>(o.iterations + 3)) << r.pass;
  // The last pass's timed calls close the log: the agreed count of them, after its probe.
  const auto& calls = rec.last();
  const std::size_t tail = static_cast<std::size_t>(o.iterations + 3) + 1;
  ASSERT_GE(calls.size(), tail);
  for (std::size_t i = calls.size() - tail; i < calls.size(); ++i) EXPECT_EQ(calls[i], Pass::backward_weight);
  o.min_time_s = 0;
  asked.clear();
  run_compute_item(rec, *cpu.stream, shape, Precision::fp32, o, kComputeWait_s);
  EXPECT_TRUE(asked.empty()) << "no window, no agreement";
}

TEST(ComputeBench, OutOfMemoryIsASkippedRecordAndKeepsBarriersMatched) {
  Cpu cpu;
  OutOfMemoryContext oom(*cpu.ctx);
  int barriers = 0;
  const NamedShape shape{"user", "matmul", LinearShape{8, 8, 8}};
  const auto records = run_compute_item(oom, *cpu.stream, shape, Precision::fp32, options(barriers), kComputeWait_s);
  EXPECT_EQ(barriers, 1);
  ASSERT_EQ(records.size(), 3u);
  for (const auto& r : records) {
    EXPECT_NE(r.skipped_reason.find("out of memory"), std::string::npos) << r.skipped_reason;
    EXPECT_TRUE(r.samples_s.empty());
  }
}

}  // namespace
}  // namespace gpuscale::workloads
