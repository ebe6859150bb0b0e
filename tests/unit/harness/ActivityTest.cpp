#include "harness/Activity.hpp"

#include <csignal>
#include <cstdlib>

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"

namespace gpuscale::harness {
namespace {

TEST(Activity, DescribesOnlyWhatIsSet) {
  enter_phase("collectives");
  EXPECT_EQ(describe(current_activity()), "phase collectives");
  {
    const OpScope op("allreduce", 1048576);
    set_iteration(7);
    EXPECT_EQ(describe(current_activity()), "phase collectives, op allreduce, size 1048576 B, iteration 7");
  }
  EXPECT_EQ(describe(current_activity()), "phase collectives");
  EXPECT_EQ(describe(Activity{}), "phase startup");
}

TEST(Activity, OpScopeRestoresTheOuterOp) {
  enter_phase("train");
  enter_op("step", 64);
  set_iteration(3);
  {
    const OpScope inner("bucket-allreduce", 25u << 20);
    EXPECT_EQ(current_activity().op, "bucket-allreduce");
    EXPECT_FALSE(current_activity().iteration.has_value());
  }
  EXPECT_EQ(describe(current_activity()), "phase train, op step, size 64 B, iteration 3");
}

TEST(FaultInjection, MalformedSeamsAreUsageErrors) {
  for (const char* value : {"stall", "stall:1", "zap:1:env", "stall:x:env", "stall:-1:env", "stall:1:"}) {
    ::setenv("GPUSCALE_TEST_FAULT", value, 1);
    EXPECT_THROW(configure_faults(1), UsageError) << value;
  }
  ::unsetenv("GPUSCALE_TEST_FAULT");
  for (const char* value : {"1", "x:smoke-allreduce", "1:"}) {
    ::setenv("GPUSCALE_TEST_CORRUPT", value, 1);
    EXPECT_THROW(configure_faults(1), UsageError) << value;
  }
  ::setenv("GPUSCALE_TEST_CORRUPT", "0:a,1:smoke-allreduce", 1);
  configure_faults(1);
  EXPECT_TRUE(corruption_requested("smoke-allreduce"));
  EXPECT_FALSE(corruption_requested("a"));
  configure_faults(0);
  EXPECT_TRUE(corruption_requested("a"));
  ::unsetenv("GPUSCALE_TEST_CORRUPT");
  configure_faults(0);
  EXPECT_FALSE(corruption_requested("a"));
}

// The fault seams end the process, so each case runs in a child process (a death test) that
// asserts how the child ended: in this process, an exit fault that fired would end the test binary
// with status 0, which reads as a pass.
//
// The child: reads the seam as `rank`, passes `point`, and ends with status 7 if the seam let it go on.
[[noreturn]] void pass_point_then_exit_7(int rank, const char* point) {
  configure_faults(rank);
  inject_fault_at(point);
  std::_Exit(7);
}

TEST(FaultInjectionDeathTest, ExitEndsTheRankWithStatusZeroAndSaysWhere) {
  ::setenv("GPUSCALE_TEST_FAULT", "exit:1:env", 1);
  EXPECT_EXIT(pass_point_then_exit_7(1, "env"), ::testing::ExitedWithCode(0),
              "gpuscale test fault: exit at env, t=[0-9]+");
  ::unsetenv("GPUSCALE_TEST_FAULT");
}

TEST(FaultInjectionDeathTest, KillEndsTheRankWithSigkill) {
  ::setenv("GPUSCALE_TEST_FAULT", "kill:2:train/ddp", 1);
  EXPECT_EXIT(pass_point_then_exit_7(2, "train/ddp"), ::testing::KilledBySignal(SIGKILL),
              "gpuscale test fault: kill at train/ddp");
  ::unsetenv("GPUSCALE_TEST_FAULT");
}

TEST(FaultInjectionDeathTest, MarkAnnouncesThePointAndGoesOn) {
  ::setenv("GPUSCALE_TEST_FAULT", "mark:1:collectives/broadcast", 1);
  EXPECT_EXIT(pass_point_then_exit_7(1, "collectives/broadcast"), ::testing::ExitedWithCode(7),
              "gpuscale test fault: mark at collectives/broadcast, t=[0-9]+");
  ::unsetenv("GPUSCALE_TEST_FAULT");
}

TEST(FaultInjectionDeathTest, OtherRanksAndOtherPointsDoNotFire) {
  ::setenv("GPUSCALE_TEST_FAULT", "exit:1:env,kill:2:env/op,exit:0:compute/linear", 1);
  EXPECT_EXIT(
      {
        configure_faults(0);
        inject_fault_at("env");
        inject_fault_at("env/op");
        inject_fault_at("compute");  // a phase is not its ops' point
        std::_Exit(7);  // reached only when nothing fired
      },
      ::testing::ExitedWithCode(7), "");
  ::unsetenv("GPUSCALE_TEST_FAULT");
}

}  // namespace
}  // namespace gpuscale::harness
