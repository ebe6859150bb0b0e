// best_round_s, the tuners' round-robin timing, on the cpu backend with candidates that sleep a known
// host time: each candidate's best round, the calls each round makes, +inf for one that cannot run, and
// the hold before each timed group (after the untimed call, long enough for the timed calls' launches).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"
#include "workloads/LayerFactory.hpp"

namespace gpuscale::workloads {
namespace {

TEST(TuningRounds, EachCandidateKeepsItsBestRound) {
  auto backend = harness::make_cpu_backend(1);
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  std::vector<int> calls(3, 0), order;
  std::vector<double> holds;
  constexpr int kHoldMark = -1;
  const auto s = best_round_s(
      *backend, *stream, calls.size(), 2, 3,
      [&](std::size_t i) {
        ++calls[i];
        order.push_back(static_cast<int>(i));
        if (i == 2) throw harness::LibraryError("test", "unsupported", "candidate 2 cannot run");
        std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 2 : 1));
      },
      [&](double seconds) {
        holds.push_back(seconds);
        order.push_back(kHoldMark);
      });
  ASSERT_EQ(s.size(), 3u);
  EXPECT_GT(s[0], s[1]);  // 2 ms against 1 ms per call
  EXPECT_GE(s[1], 0.9e-3);
  EXPECT_EQ(s[2], std::numeric_limits<double>::infinity());
  EXPECT_EQ(calls[0], 2 * (1 + 3));  // two rounds of one untimed and three timed calls
  EXPECT_EQ(calls[1], 2 * (1 + 3));
  // Round-robin: the first round visits every candidate before the second begins; each timed group
  // (not the one that cannot run) waits behind a hold enqueued after its untimed call.
  const std::vector<int> first_round = {0, kHoldMark, 0, 0, 0, 1, kHoldMark, 1, 1, 1, 2};
  ASSERT_GE(order.size(), first_round.size());
  EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(first_round.size())),
            first_round);
  ASSERT_EQ(holds.size(), 4u);  // two rounds of the two candidates that run
  for (const double h : holds) EXPECT_DOUBLE_EQ(h, kHoldPerCall_s * (3 + 2));
}

// Spins (not sleeps) for `ms`: timing a few percent apart must not hang on the scheduler's wake-up.
void spin_ms(double ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms);
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Candidate 0 wins the short rounds by 2% but slows by 30% once it has run alone for a while (a
// kernel whose power pulls the clock down); 1 is steady; 2 is 50% slower and never runs settled.
struct HeatingCandidates {
  std::vector<int> calls = std::vector<int>(3, 0);
  std::size_t last = 99;
  int in_a_row = 0;
  void operator()(std::size_t i) {
    ++calls[i];
    in_a_row = i == last ? in_a_row + 1 : 1;
    last = i;
    spin_ms(i == 0 ? (in_a_row > 10 ? 2.6 : 2.0) : i == 1 ? 2.04 : 3.0);
  }
};

TEST(TuningRounds, TiesOfLongCallsAreRankedSettledWhenAsked) {
  auto backend = harness::make_cpu_backend(1);
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  const auto no_hold = [](double) {};
  HeatingCandidates quick;
  EXPECT_EQ(fastest_candidate(*backend, *stream, 3, 3, 3, 0.0, std::ref(quick), no_hold), 0u);
  EXPECT_EQ(quick.calls, (std::vector<int>{12, 12, 12}));  // three rounds of 1 + 3 calls, nothing more

  HeatingCandidates settled;
  EXPECT_EQ(fastest_candidate(*backend, *stream, 3, 3, 3, 0.03, std::ref(settled), no_hold), 1u);
  EXPECT_GT(settled.calls[0], 12 + 2 * (1 + kSettledReps));  // ran alone for 30 ms, twice
  EXPECT_GT(settled.calls[1], 12 + 2 * (1 + kSettledReps));
  EXPECT_EQ(settled.calls[2], 12);  // not within kSettledWithin of the fastest
}

TEST(TuningRounds, NoCandidateThatRunsGivesTheCount) {
  auto backend = harness::make_cpu_backend(1);
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  const auto fails = [](std::size_t) { throw harness::LibraryError("test", "unsupported", "cannot run"); };
  EXPECT_EQ(fastest_candidate(*backend, *stream, 2, 2, 3, 0.03, fails, [](double) {}), 2u);
}

}  // namespace
}  // namespace gpuscale::workloads
