// best_round_s, the tuners' round-robin timing, on the cpu backend with candidates that sleep a known
// host time: each candidate's best round, the calls each round makes, +inf for one that cannot run, and
// the hold before each timed group (after the untimed call, long enough for the timed calls' launches).
#include <chrono>
#include <limits>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"
#include "workloads/layers/LayerFactory.hpp"

namespace gpuscale::workloads {
namespace {

constexpr double kWaitS = 60;  // any timer's wait

TEST(TuningRounds, EachCandidateKeepsItsBestRound) {
  auto backend = harness::make_cpu_backend();
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  std::vector<int> calls(3, 0), order;
  std::vector<double> holds;
  constexpr int kHoldMark = -1;
  const auto s = best_round_s(
      *backend, *stream, kWaitS, calls.size(), 2, 3,
      [&](std::size_t i) {
        ++calls[i];
        order.push_back(static_cast<int>(i));
        if (i == 2) throw harness::LibraryError("test", "unsupported", "candidate 2 cannot run");
        std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 8 : 1));
      },
      [&](double seconds) {
        holds.push_back(seconds);
        order.push_back(kHoldMark);
      });
  ASSERT_EQ(s.size(), 3u);
  EXPECT_GT(s[0], s[1]);  // 8 ms against 1 ms per call: far apart on a loaded machine
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

// The settled re-ranking: the first finalist settles the GPU untimed, then every finalist runs a window
// of the calls its short-round time gives, in order and again in reverse; the least time per call over
// both windows wins, whatever the short rounds' order said.
TEST(TuningRounds, SettledRankingTimesEachFinalistTwiceInMirroredOrder) {
  auto backend = harness::make_cpu_backend();
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  // Far apart, so that a descheduled millisecond on a loaded machine cannot reorder them: the winner
  // would need over 150 ms of lost time in its windows to lose.
  const std::vector<int> sleep_ms = {1, 30, 20, 50};  // candidate 3 is no finalist
  const std::vector<double> short_s = {1e-3, 1e-3, 2e-3, 1e-3};
  std::vector<int> order;
  const std::size_t winner = settled_fastest(*backend, *stream, kWaitS, {2, 1, 0}, short_s, 4e-3, [&](std::size_t i) {
    order.push_back(static_cast<int>(i));
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms[i]));
  });
  EXPECT_EQ(winner, 0u) << "1 ms per call, though ranked last by the short rounds";
  // Calls per window: ceil(4 ms / short-round time): 2 for candidate 2, 4 for the others.
  std::vector<int> expected = {2, 2};                                   // the settle, untimed
  for (int c : {2, 2, 1, 1, 1, 1, 0, 0, 0, 0}) expected.push_back(c);   // in order
  for (int c : {0, 0, 0, 0, 1, 1, 1, 1, 2, 2}) expected.push_back(c);   // in reverse
  EXPECT_EQ(order, expected);
  EXPECT_EQ(settled_fastest(*backend, *stream, kWaitS, {1}, short_s, 1e-3, [](std::size_t) {}), 1u) << "one finalist";
}

// The finalists: those that ran, fastest first (ties in candidate order), none more than kSettledWithin
// slower than the fastest, kSettledFinalists at most.
TEST(TuningRounds, SettledFinalistsAreTheFastestFewThatRanWithinTheMargin) {
  const double inf = std::numeric_limits<double>::infinity();
  const double edge = 1e-3 * (1.0 + kSettledWithin);
  EXPECT_EQ(settled_finalists({1.02e-3, inf, 1e-3, edge, 1.02e-3}), (std::vector<std::size_t>{2, 0, 4}))
      << "three at most, in short-round order, the tie in candidate order";
  EXPECT_EQ(settled_finalists({1e-3, edge, edge * 1.001, inf}), (std::vector<std::size_t>{0, 1}))
      << "one at the margin stays, one past it goes";
  EXPECT_EQ(settled_finalists({inf, 2e-3}), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(settled_finalists({inf, inf}).empty()) << "none ran";
  EXPECT_TRUE(settled_finalists({}).empty());
}

}  // namespace
}  // namespace gpuscale::workloads
