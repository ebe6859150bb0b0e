#include "harness/Activity.hpp"

#include <csignal>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "harness/Deadline.hpp"
#include "harness/Error.hpp"
#include "harness/FaultInjection.hpp"

namespace gpuscale::harness {
namespace {

// The places the tests below name (launch/SeamPlaces.cpp gives gpuscale's own).
const SeamPlaces kPlaces{{"env", "env/op", "compute", "compute/linear", "train/ddp", "collectives/broadcast", "finish"},
                         {"smoke-allreduce", "a"},
                         {"compute"}};

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
    EXPECT_THROW(configure_faults(1, kPlaces), UsageError) << value;
  }
  ::unsetenv("GPUSCALE_TEST_FAULT");
  for (const char* value : {"1", "x:smoke-allreduce", "1:"}) {
    ::setenv("GPUSCALE_TEST_CORRUPT", value, 1);
    EXPECT_THROW(configure_faults(1, kPlaces), UsageError) << value;
  }
  ::setenv("GPUSCALE_TEST_CORRUPT", "0:a,1:smoke-allreduce", 1);
  configure_faults(1, kPlaces);
  EXPECT_TRUE(corruption_requested("smoke-allreduce"));
  EXPECT_FALSE(corruption_requested("a"));
  configure_faults(0, kPlaces);
  EXPECT_TRUE(corruption_requested("a"));
  ::unsetenv("GPUSCALE_TEST_CORRUPT");
  configure_faults(0, kPlaces);
  EXPECT_FALSE(corruption_requested("a"));
}

// A name no seam fires at would run the job without its fault: refused, with the names that work.
TEST(FaultInjection, UnknownPlacesBuffersAndPhasesAreRefused) {
  const auto refusal = [](const char* variable, const char* value) {
    ::setenv(variable, value, 1);
    std::string what = "accepted";
    try {
      configure_faults(0, kPlaces);
    } catch (const UsageError& e) {
      what = e.what();
    }
    ::unsetenv(variable);
    return what;
  };
  EXPECT_EQ(refusal("GPUSCALE_TEST_FAULT", "stall:0:compute/lineer"),
            "GPUSCALE_TEST_FAULT: unknown place 'compute/lineer' (env, env/op, compute, compute/linear, train/ddp, "
            "collectives/broadcast, finish)");
  EXPECT_EQ(refusal("GPUSCALE_TEST_FAULT", "hang:1:finish"),
            "GPUSCALE_TEST_FAULT: hang at finish stops nothing: no device work follows it");
  EXPECT_EQ(refusal("GPUSCALE_TEST_CORRUPT", "1:smoke-allreduse"),
            "GPUSCALE_TEST_CORRUPT: unknown buffer 'smoke-allreduse' (smoke-allreduce, a)");
  EXPECT_EQ(refusal("GPUSCALE_TEST_FOREIGN_PROCESS", "1:compute:1@comptue"),
            "GPUSCALE_TEST_FOREIGN_PROCESS: unknown phase 'comptue' (compute)");
  // Another rank's entry is checked too: every rank refuses the same value alike.
  EXPECT_NE(refusal("GPUSCALE_TEST_FAULT", "exit:7:nowhere"), "accepted");
  EXPECT_EQ(refusal("GPUSCALE_TEST_FAULT", "hang:1:compute/linear"), "accepted");
}

// Once a hang fired, every wait for device work runs to its deadline and times out naming the wait.
TEST(FaultInjection, HangStopsWaitsUntilTheirDeadline) {
  ::setenv("GPUSCALE_TEST_FAULT", "hang:0:train/ddp", 1);
  configure_faults(0, kPlaces);
  enter_phase("train");
  wait_if_hung(Deadline::after(0.01), "allreduce");  // not fired yet: returns at once
  enter_op("ddp");
  try {
    wait_if_hung(Deadline::after(0.05), "allreduce");
    ADD_FAILURE() << "a hung wait returned";
  } catch (const TimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out waiting for allreduce (phase train, op ddp)"), std::string::npos)
        << e.what();
  }
  ::unsetenv("GPUSCALE_TEST_FAULT");
  configure_faults(0, kPlaces);
  wait_if_hung(Deadline::after(0.01), "allreduce");  // cleared with the seam
}

// The fault seams end the process, so each case runs in a child process (a death test) that
// asserts how the child ended: in this process, an exit fault that fired would end the test binary
// with status 0, which reads as a pass.
//
// The child: reads the seam as `rank`, passes `point`, and ends with status 7 if the seam let it go on.
[[noreturn]] void pass_point_then_exit_7(int rank, const char* point) {
  configure_faults(rank, kPlaces);
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
        configure_faults(0, kPlaces);
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
