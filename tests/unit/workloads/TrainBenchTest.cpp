// The training benchmark without MPI: --comm-ctas auto's rule and choice (on the cpu backend, through
// one-rank fake communicators whose allreduces take a set time and whose max reductions can stand in
// for a slower rank), the figures derived from the ranks' own, the assembly of a record on rank 0, and
// the per-rank result's round trip through the gather's JSON.
#include "workloads/layers/ContextFactory.hpp"
#include "workloads/train/TrainBench.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/Communicator.hpp"
#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"
#include "workloads/train/TrainOps.hpp"

namespace gpuscale::workloads {
namespace {

constexpr double kTrainWait_s = 30;  // any single wait (the phase's --timeout in the product)

// One rank alone: every operation leaves its data as it is, each allreduce takes delay_s first, and
// a max reduction also takes the largest with `peer_max` (another rank's values), where given.
class FakeComm final : public harness::Communicator {
 public:
  explicit FakeComm(double delay_s, std::vector<float> peer_max = {})
      : delay_s_(delay_s), peer_max_(std::move(peer_max)) {}
  int rank() const noexcept override { return 0; }
  int size() const noexcept override { return 1; }
  std::string_view transport() const noexcept override { return "fake"; }
  void all_reduce(const void* send, void* recv, std::size_t count, harness::DataType type, harness::RedOp op,
                  harness::Stream&, const harness::Deadline&) override {
    copy(send, recv, count * harness::size_of(type));
    if (op == harness::RedOp::max && !peer_max_.empty()) {
      auto* values = static_cast<float*>(recv);
      for (std::size_t i = 0; i < count; ++i) values[i] = std::max(values[i], peer_max_.at(i));
      return;
    }
    ++allreduces;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s_));
  }
  void broadcast(const void* send, void* recv, std::size_t count, harness::DataType type, int,
                 harness::Stream&, const harness::Deadline&) override {
    copy(send, recv, count * harness::size_of(type));
  }
  void all_gather(const void*, void*, std::size_t, harness::DataType, harness::Stream&,
                  const harness::Deadline&) override {
    unused();
  }
  void reduce_scatter(const void*, void*, std::size_t, harness::DataType, harness::RedOp, harness::Stream&,
                      const harness::Deadline&) override {
    unused();
  }
  void reduce(const void*, void*, std::size_t, harness::DataType, harness::RedOp, int, harness::Stream&,
              const harness::Deadline&) override {
    unused();
  }
  void all_to_all(const void*, void*, std::size_t, harness::DataType, harness::Stream&,
                  const harness::Deadline&) override {
    unused();
  }
  void send_recv(const void*, int, void*, int, std::size_t, harness::DataType, harness::Stream&,
                 const harness::Deadline&) override {
    unused();
  }
  void group_start() override {}
  void group_end(const harness::Deadline&) override {}
  void wait(harness::Stream&, const harness::Deadline&, std::string_view) override {}
  std::unique_ptr<Communicator> split(int, int, const harness::Deadline&, const harness::CommConfig&) override {
    unused();
    return nullptr;
  }
  std::unique_ptr<harness::Buffer> allocate_window(std::size_t, harness::MemoryTracker*,
                                                   const harness::Deadline&) override {
    return nullptr;
  }
  void abort() noexcept override {}

  int allreduces = 0;  // those of the trainer's buckets (not the max reductions)

 private:
  static void copy(const void* send, void* recv, std::size_t bytes) {
    if (send != recv) std::memmove(recv, send, bytes);
  }
  [[noreturn]] static void unused() { throw harness::RuntimeError("FakeComm: not used by training"); }
  double delay_s_;
  std::vector<float> peer_max_;
};

struct CpuBench {
  std::unique_ptr<harness::Backend> backend = harness::make_cpu_backend();
  std::unique_ptr<harness::Stream> stream = backend->create_stream(harness::StreamPriority::normal);
  std::unique_ptr<ComputeContext> ctx = make_compute_context(*backend, *stream, TuningOptions{}, kTrainWait_s);
  std::unique_ptr<TrainOps> ops = make_train_ops(*backend);
  Model model = make_model("mlp", {2, 8, Layout::nchw});
};

TimingOptions quick_timing() {
  TimingOptions t;
  t.warmup = 1;
  t.iterations = 3;
  return t;
}

DdpTrainer trainer_on(CpuBench& cpu, harness::Communicator& comm) {
  return DdpTrainer(*cpu.ctx, *cpu.ops, cpu.model, 4, Precision::fp32, &comm, DdpOptions{}, 1, 0, 4, 60);
}

TEST(TrainBench, TunedCtasOnlyWhenMoreThanOnePercentFaster) {
  EXPECT_TRUE(prefer_tuned_ctas(2.56e-3, 2.34e-3));
  EXPECT_FALSE(prefer_tuned_ctas(22.395e-3, 22.393e-3));  // a tie keeps NCCL's choice
  EXPECT_FALSE(prefer_tuned_ctas(5.22e-3, 5.67e-3));
}

TEST(TrainBench, CtaTunerKeepsTheFasterCommunicatorAndStaysOnIt) {
  CpuBench cpu;
  FakeComm nccl_choice(0.02), tuned(0);
  auto trainer = trainer_on(cpu, nccl_choice);
  const auto trials = tune_comm_ctas(trainer, *cpu.backend, nccl_choice, tuned, quick_timing(), kTrainWait_s);
  ASSERT_EQ(trials.size(), 2u);
  EXPECT_EQ(trials[0].first, kTunedCommCtas);
  EXPECT_EQ(trials[1].first, 0);
  EXPECT_LT(trials[0].second, trials[1].second);
  EXPECT_GE(trials[1].second, 0.02);
  const int before = tuned.allreduces, nccl_before = nccl_choice.allreduces;
  trainer.step();
  EXPECT_GT(tuned.allreduces, before);
  EXPECT_EQ(nccl_choice.allreduces, nccl_before);
}

TEST(TrainBench, CtaTunerKeepsNcclsChoiceWhenTheTwinIsSlower) {
  CpuBench cpu;
  FakeComm nccl_choice(0), tuned(0.02);
  auto trainer = trainer_on(cpu, nccl_choice);
  const auto trials = tune_comm_ctas(trainer, *cpu.backend, nccl_choice, tuned, quick_timing(), kTrainWait_s);
  ASSERT_EQ(trials.size(), 2u);
  EXPECT_EQ(trials[0].first, 0);
  EXPECT_EQ(trials[1].first, kTunedCommCtas);
  const int before = nccl_choice.allreduces;
  trainer.step();
  EXPECT_GT(nccl_choice.allreduces, before);
}

TEST(TrainBench, CtaTunerDecidesOnTheSlowestRank) {
  CpuBench cpu;
  // Here both are fast; another rank took 1 s a step on NCCL's choice and 0.5 s on the twin.
  FakeComm nccl_choice(0, {1.0f, 0.5f}), tuned(0);
  auto trainer = trainer_on(cpu, nccl_choice);
  const auto trials = tune_comm_ctas(trainer, *cpu.backend, nccl_choice, tuned, quick_timing(), kTrainWait_s);
  ASSERT_EQ(trials.size(), 2u);
  EXPECT_EQ(trials[0], (std::pair<int, double>{kTunedCommCtas, 0.5}));
  EXPECT_EQ(trials[1], (std::pair<int, double>{0, 1.0}));
}

TEST(TrainBench, RankRunTunesOnlyWithATwin) {
  CpuBench cpu;
  FakeComm comm(0), twin(0);
  TrainBenchOptions o;
  o.timing = quick_timing();
  o.rank = 5;
  DdpRun run{4, DdpOptions{}, &comm, nullptr, true, "ddp mlp fp32 x1"};
  const auto plain = run_ddp_rank(*cpu.ctx, *cpu.ops, cpu.model, Precision::fp32, run, o, kTrainWait_s);
  EXPECT_TRUE(plain.skipped_reason.empty());
  EXPECT_TRUE(plain.cta_trials.empty());
  EXPECT_EQ(plain.figures.rank, 5);
  EXPECT_EQ(plain.figures.step_samples_s.size(), 3u);
  EXPECT_GT(plain.buckets, 0);
  ASSERT_FALSE(plain.trace.empty());
  EXPECT_EQ(plain.trace.front().config, "ddp mlp fp32 x1");
  run.tuned_twin = &twin;
  run.traced = false;
  const auto tuned = run_ddp_rank(*cpu.ctx, *cpu.ops, cpu.model, Precision::fp32, run, o, kTrainWait_s);
  EXPECT_EQ(tuned.cta_trials.size(), 2u);
  EXPECT_TRUE(tuned.trace.empty());
}

results::TrainRankFigures rank_figures(int rank, std::vector<double> steps, std::optional<double> compute,
                                       std::optional<double> comm, std::uint64_t peak) {
  results::TrainRankFigures f;
  f.rank = rank;
  f.step_samples_s = std::move(steps);
  f.compute_s = compute;
  f.comm_s = comm;
  f.peak_memory_bytes = peak;
  return f;
}

TEST(TrainBench, DerivedFiguresTakeTheSlowestRankPerStep) {
  results::TrainRecord r;
  r.global_batch = 8;
  r.accum = 2;
  derive_figures(r,
                 {rank_figures(0, {1.0, 4.0, 2.0}, 1.5, 1.0, 100), rank_figures(1, {3.0, 1.0, 2.0}, 2.5, 3.0, 300),
                  rank_figures(2, {1.0, 1.0, 1.0}, std::nullopt, std::nullopt, 200)},
                 true);
  EXPECT_EQ(r.step_samples_s, (std::vector<double>{3.0, 4.0, 2.0}));
  EXPECT_DOUBLE_EQ(r.step_s.median, 3.0);
  EXPECT_DOUBLE_EQ(r.samples_per_s, 16.0 / 3.0);
  EXPECT_DOUBLE_EQ(*r.compute_s, 2.0);  // median of the ranks that measured it
  EXPECT_DOUBLE_EQ(*r.comm_s, 2.0);
  EXPECT_DOUBLE_EQ(*r.exposed_comm_s, 1.0);
  EXPECT_DOUBLE_EQ(*r.overlap_pct, 50.0);
  EXPECT_EQ(r.peak_memory_bytes, 300u);
  EXPECT_EQ(r.ranks.size(), 3u);
}

TEST(TrainBench, DerivedFiguresOfRanksTimedAloneAreTheFirstRanks) {
  results::TrainRecord r;
  r.global_batch = 4;
  derive_figures(r, {rank_figures(0, {1.0, 2.0}, 3.0, 0.5, 1), rank_figures(1, {5.0, 5.0}, 3.0, 0.5, 1)}, false);
  EXPECT_EQ(r.step_samples_s, (std::vector<double>{1.0, 2.0}));
  EXPECT_DOUBLE_EQ(*r.exposed_comm_s, 0.0);  // compute-only above the step: none exposed
  EXPECT_DOUBLE_EQ(*r.overlap_pct, 100.0);
}

TEST(TrainBench, ExposedCommunicationBeyondTheAllreducesIsNoOverlap) {
  results::TrainRecord r;
  r.global_batch = 4;
  derive_figures(r, {rank_figures(0, {1.0}, 0.5, 0.2, 1)}, true);
  EXPECT_DOUBLE_EQ(*r.exposed_comm_s, 0.5);
  EXPECT_DOUBLE_EQ(*r.overlap_pct, 0.0);
}

TEST(TrainBench, DerivedFiguresWithoutCommunicationLeaveItUnset) {
  results::TrainRecord r;
  r.global_batch = 4;
  derive_figures(r, {rank_figures(0, {1.0}, std::nullopt, std::nullopt, 1)}, true);
  EXPECT_FALSE(r.compute_s || r.comm_s || r.exposed_comm_s || r.overlap_pct);
  derive_figures(r, {}, true);
  EXPECT_EQ(r.ranks.size(), 1u);  // no ranks: unchanged
}

TrainRankResult rank_result(int rank, double step_s) {
  TrainRankResult p;
  p.figures = rank_figures(rank, {step_s}, std::nullopt, std::nullopt, 1);
  p.buckets = 2;
  p.window = true;
  p.cta_trials = {{64, 0.5}, {0, 0.7}};
  results::TraceSpan span;
  span.rank = rank;
  span.name = "layer 0 fwd";
  p.trace = {span};
  return p;
}

TEST(TrainBench, RecordAssembledFromTheRanksThatTookPart) {
  results::TrainRecord r;
  r.global_batch = 2;
  std::vector<results::TraceSpan> trace;
  assemble_record(r, {rank_result(0, 1.0), std::nullopt, rank_result(2, 3.0)}, true, &trace);
  EXPECT_TRUE(r.skipped_reason.empty());
  ASSERT_EQ(r.ranks.size(), 2u);
  EXPECT_EQ(r.ranks[1].rank, 2);
  EXPECT_EQ(r.step_samples_s, (std::vector<double>{3.0}));
  EXPECT_EQ(r.buckets, 2);
  EXPECT_EQ(r.comm_buffers, "window");
  EXPECT_EQ(r.comm_ctas, 64);
  EXPECT_EQ(r.comm_ctas_trials, (std::vector<std::pair<int, double>>{{64, 0.5}, {0, 0.7}}));
  EXPECT_EQ(trace.size(), 2u);
}

TEST(TrainBench, OneSkippedRankSkipsTheRecord) {
  results::TrainRecord r;
  TrainRankResult skipped;
  skipped.skipped_reason = "out of memory: test";
  assemble_record(r, {rank_result(0, 1.0), skipped}, true, nullptr);
  EXPECT_EQ(r.skipped_reason, "out of memory: test");
  EXPECT_TRUE(r.step_samples_s.empty());
}

TEST(TrainBench, RankResultRoundTripsThroughJson) {
  const auto sent = rank_result(3, 0.25);
  const auto got = nlohmann::json::parse(nlohmann::json(sent).dump()).get<TrainRankResult>();
  EXPECT_EQ(got.figures.rank, 3);
  EXPECT_EQ(got.figures.step_samples_s, sent.figures.step_samples_s);
  EXPECT_EQ(got.buckets, 2);
  EXPECT_TRUE(got.window);
  EXPECT_EQ(got.cta_trials, sent.cta_trials);
  ASSERT_EQ(got.trace.size(), 1u);
  EXPECT_EQ(got.trace[0].name, "layer 0 fwd");
  TrainRankResult skipped;
  skipped.skipped_reason = "out of memory: x";
  EXPECT_EQ(nlohmann::json(skipped).get<TrainRankResult>().skipped_reason, "out of memory: x");
}

}  // namespace
}  // namespace gpuscale::workloads
