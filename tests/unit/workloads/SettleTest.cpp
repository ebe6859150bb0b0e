// settle_for, the time-based warm-up of training steps, on a fake trainer whose steps take a known
// host time: the count that fills the time, the ranks' agreed count used in place of this rank's own.
#include <thread>

#include <gtest/gtest.h>

#include "workloads/train/TrainTiming.hpp"

namespace gpuscale::workloads {
namespace {

constexpr double kSettleWait_s = 30;  // any single wait (the phase's --timeout in the product)

struct FakeTrainer {
  std::chrono::milliseconds step_time{2};
  int steps = 0, syncs = 0;
  void step() {
    ++steps;
    std::this_thread::sleep_for(step_time);
  }
  void synchronize(const harness::Deadline&) { ++syncs; }
};

TEST(Settle, NoTimeNoSteps) {
  FakeTrainer t;
  EXPECT_EQ(settle_for(t, TimingOptions{}, kSettleWait_s), 0);
  EXPECT_EQ(t.steps, 0);
}

TEST(Settle, StepsUntilTheTimeHasRunThenWaitsOnce) {
  FakeTrainer t;
  TimingOptions o;
  o.warmup_s = 0.02;  // ten 2 ms steps at most (the first, timed, may run long on a busy host)
  const int ran = settle_for(t, o, kSettleWait_s);
  EXPECT_EQ(ran, t.steps);
  EXPECT_GE(t.steps, 1);
  EXPECT_LE(t.steps, 10);
  EXPECT_EQ(t.syncs, 2);  // after the timed step, and once after the rest
}

TEST(Settle, TheAgreedCountWins) {
  FakeTrainer t;
  TimingOptions o;
  o.warmup_s = 0.02;
  int asked = -1;
  o.agree_steps = [&asked](int mine) {
    asked = mine;
    return 25;  // a slower rank needs more
  };
  EXPECT_EQ(settle_for(t, o, kSettleWait_s), 26);
  EXPECT_EQ(t.steps, 26);
  EXPECT_GE(asked, 0);
  EXPECT_LE(asked, 9);
}

}  // namespace
}  // namespace gpuscale::workloads
