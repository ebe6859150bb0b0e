// best_round_s, the tuners' round-robin timing, on the cpu backend with candidates that sleep a known
// host time: each candidate's best round, the calls each round makes, +inf for one that cannot run.
#include <gtest/gtest.h>

#include <chrono>
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
  const auto s = best_round_s(*backend, *stream, calls.size(), 2, 3, [&](std::size_t i) {
    ++calls[i];
    order.push_back(static_cast<int>(i));
    if (i == 2) throw harness::LibraryError("test", "unsupported", "candidate 2 cannot run");
    std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 2 : 1));
  });
  ASSERT_EQ(s.size(), 3u);
  EXPECT_GT(s[0], s[1]);  // 2 ms against 1 ms per call
  EXPECT_GE(s[1], 0.9e-3);
  EXPECT_EQ(s[2], std::numeric_limits<double>::infinity());
  EXPECT_EQ(calls[0], 2 * (1 + 3));  // two rounds of one untimed and three timed calls
  EXPECT_EQ(calls[1], 2 * (1 + 3));
  // Round-robin: the first round visits every candidate before the second begins.
  ASSERT_GE(order.size(), 9u);
  EXPECT_EQ(order[0], 0);
  EXPECT_EQ(order[4], 1);
  EXPECT_EQ(order[8], 2);
}

// A candidate that is fast for its first calls and slow once its load has lasted (a kernel whose clock
// drops under the power limit) against a steady one: short rounds only ever see the first calls and
// pick it; sustained bursts time each candidate's settled calls and pick the steady one.
TEST(TuningRounds, SustainedBurstsRankCandidatesByTheirSettledCalls) {
  auto backend = harness::make_cpu_backend(1);
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  std::size_t last = 99;
  int streak = 0;  // calls of the same candidate in a row: its load so far
  std::vector<int> first_visits;
  const auto run = [&](std::size_t i) {
    if (i != last) first_visits.push_back(static_cast<int>(i));
    streak = i == last ? streak + 1 : 1;
    last = i;
    if (i == 2) throw harness::LibraryError("test", "unsupported", "candidate 2 cannot run");
    const bool settled = streak > 6;
    std::this_thread::sleep_for(std::chrono::microseconds(i == 0 ? (settled ? 3000 : 500) : 1500));
  };
  const auto rounds = best_round_s(*backend, *stream, 3, 2, 3, run);
  EXPECT_LT(rounds[0], rounds[1]);  // 0.5 ms against 1.5 ms: the first calls decide
  first_visits.clear();
  const auto sustained = sustained_s(*backend, *stream, 3, 0.04, run);
  ASSERT_EQ(sustained.size(), 3u);
  EXPECT_GT(sustained[0], sustained[1]);  // 3 ms against 1.5 ms once settled
  EXPECT_GE(sustained[0], 2.5e-3);
  EXPECT_EQ(sustained[2], std::numeric_limits<double>::infinity());
  // In order, then in reverse: candidate 2 cannot run and is not tried again.
  EXPECT_EQ(first_visits, (std::vector<int>{0, 1, 2, 1, 0}));
}

}  // namespace
}  // namespace gpuscale::workloads
