// Boundary timing on the cpu backend's events: one sample per iteration, and the samples add up to
// the first-to-last interval, so their mean is nccl-tests' elapsed / iterations.
#include "collectives/BoundaryTimer.hpp"

#include <chrono>
#include <numeric>
#include <thread>

#include <gtest/gtest.h>

#include "harness/CpuBackend.hpp"
#include "harness/Error.hpp"

namespace gpuscale::collectives {
namespace {

void busy_for(std::chrono::microseconds d) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) {
  }
}

BoundaryTimes time_iterations(BoundaryTimer& timer, harness::Stream& stream, int iterations) {
  timer.start(stream);
  for (int i = 0; i < iterations; ++i) {
    busy_for(std::chrono::microseconds(50 * (i % 3 + 1)));  // unequal iterations
    timer.mark(stream);
  }
  return timer.read(harness::Deadline::after(10));
}

TEST(BoundaryTimer, SamplesAddUpToTheBatch) {
  auto backend = harness::make_cpu_backend();
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  BoundaryTimer timer(*backend, 7);
  EXPECT_EQ(timer.max_iterations(), 7);
  const BoundaryTimes t = time_iterations(timer, *stream, 7);
  ASSERT_EQ(t.samples_s.size(), 7u);
  const double sum = std::accumulate(t.samples_s.begin(), t.samples_s.end(), 0.0);
  EXPECT_NEAR(sum / 7, t.total_s / 7, 1e-12);
  EXPECT_GE(t.total_s, 650e-6);  // at least the busy waits: 50 * (1 + 2 + 3 + 1 + 2 + 3 + 1) us
  // Each sample holds at least its own iteration's wait (preemption only adds): the third's 150 us is
  // over the mean of the seven (650 / 7 us), so these are per-iteration samples, not the mean.
  for (int i = 0; i < 7; ++i) EXPECT_GE(t.samples_s[static_cast<std::size_t>(i)], 50e-6 * (i % 3 + 1)) << i;
}

TEST(BoundaryTimer, StartForgetsTheLastRun) {
  auto backend = harness::make_cpu_backend();
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  BoundaryTimer timer(*backend, 5);
  time_iterations(timer, *stream, 5);
  const BoundaryTimes t = time_iterations(timer, *stream, 2);
  ASSERT_EQ(t.samples_s.size(), 2u);
  EXPECT_NEAR(t.samples_s[0] + t.samples_s[1], t.total_s, 1e-12);
  timer.start(*stream);
  EXPECT_TRUE(timer.read(harness::Deadline::after(10)).samples_s.empty());
}

TEST(BoundaryTimer, MoreIterationsThanEventsIsAnError) {
  auto backend = harness::make_cpu_backend();
  auto stream = backend->create_stream(harness::StreamPriority::normal);
  BoundaryTimer timer(*backend, 2);
  timer.start(*stream);
  timer.mark(*stream);
  timer.mark(*stream);
  EXPECT_THROW(timer.mark(*stream), harness::RuntimeError);
}

}  // namespace
}  // namespace gpuscale::collectives
