// Values that only the job's shape can judge: each impossible one is named with the job's shape,
// the same values on a job that can take them pass.
#include "launch/PlanFit.hpp"

#include <gtest/gtest.h>

#include "launch/Cli.hpp"
#include "launch/RunPlanning.hpp"

namespace gpuscale::launch {
namespace {

std::string misfit(std::vector<const char*> args, JobShape shape) {
  args.insert(args.begin(), "gpuscale");
  const auto plan = resolve_run_plan(parse_command_line(static_cast<int>(args.size()), args.data()), true);
  return plan_misfit(plan, shape);
}

TEST(PlanFit, TheRootMustBeARank) {
  EXPECT_EQ(misfit({"collectives", "-r", "5"}, {3, 1, 2}),
            "-r 5: the root must be a rank, and the job has 3 ranks (0..2)");
  EXPECT_EQ(misfit({"collectives", "-r", "3"}, {3, 1, 2}),
            "-r 3: the root must be a rank, and the job has 3 ranks (0..2)");
  EXPECT_EQ(misfit({"collectives", "-r", "2"}, {3, 1, 2}), "");
  EXPECT_EQ(misfit({"collectives", "-r", "1"}, {1, 1, 2}),
            "-r 1: the root must be a rank, and the job has 1 rank (0..0)");
}

TEST(PlanFit, DdpRankCountsMustFitTheJob) {
  EXPECT_EQ(misfit({"train", "--gpus", "1,2,64"}, {3, 1, 2}),
            "--gpus 64: DDP over more ranks than the job's; the job has 3 ranks");
  EXPECT_EQ(misfit({"train", "--gpus", "1,2,3"}, {3, 1, 2}), "");
}

TEST(PlanFit, DpDevicesMustBeThere) {
  EXPECT_EQ(misfit({"train", "--dp-devices", "100"}, {3, 1, 2}), "--dp-devices 100: rank 0 can drive 2 devices here");
  EXPECT_EQ(misfit({"train", "--dp-devices", "2"}, {3, 1, 2}), "");
  // Without DP the option drives nothing, and is not judged.
  EXPECT_EQ(misfit({"train", "--dp-devices", "100", "--strategy", "ddp"}, {3, 1, 0}), "");
}

// --isolate compares nodes: on fewer than three there is nothing to compare a node with, so the run
// would measure and judge nothing (exit 0 before); by default isolation only runs from three nodes.
TEST(PlanFit, IsolateNeedsNodesToCompare) {
  EXPECT_EQ(misfit({"collectives", "--isolate"}, {1, 1, 2}),
            "--isolate compares nodes with each other and needs at least 3 nodes; the job spans 1 node");
  EXPECT_EQ(misfit({"collectives", "--isolate"}, {8, 2, 2}),
            "--isolate compares nodes with each other and needs at least 3 nodes; the job spans 2 nodes");
  EXPECT_EQ(misfit({"collectives", "--isolate"}, {12, 3, 2}), "");
  EXPECT_EQ(misfit({"collectives"}, {1, 1, 2}), "");
}

}  // namespace
}  // namespace gpuscale::launch
