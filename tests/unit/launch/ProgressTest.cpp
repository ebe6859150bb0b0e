#include "launch/Progress.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "launch/base/Profile.hpp"

namespace gpuscale::launch {
namespace {

TEST(Progress, PlainLinesInALogWithElapsedAndEta) {
  std::ostringstream out;
  double now = 100;
  {
    Progress p(out, true, false, 60, [&] { return now; });
    p.phase("collectives", 2, 4);
    now = 110;
    p.step("allreduce 1 MiB", 5, 20);
    now = 112;
    p.step("sweeping");
  }
  EXPECT_EQ(out.str(),
            "[gpuscale] 2/4 collectives | start | 0.0 s | budget left 60 s\n"
            "[gpuscale] 2/4 collectives | allreduce 1 MiB (5/20) | 10.0 s | phase ETA 30 s\n"
            "[gpuscale] 2/4 collectives | sweeping | 12.0 s | budget left 48 s\n");
}

TEST(Progress, OneRewrittenLineOnATerminal) {
  std::ostringstream out;
  Progress p(out, true, true, 15, [] { return 0.0; });
  p.phase("env", 1, 1);
  p.step("smoke allreduce");
  p.finish();
  EXPECT_EQ(out.str(),
            "\r[gpuscale] 1/1 env | start | 0.0 s | budget left 15 s\033[K"
            "\r[gpuscale] 1/1 env | smoke allreduce | 0.0 s | budget left 15 s\033[K\n");
}

TEST(Progress, QuietPrintsNothing) {
  std::ostringstream out;
  Progress p(out, false, true, 15, [] { return 0.0; });
  p.phase("env", 1, 1);
  p.step("x", 1, 2);
  p.finish();
  EXPECT_EQ(out.str(), "");
}

TEST(Profile, CpuDefaultIsScaledDownAndQuickIsShorter) {
  const auto gpu = make_profile(false, harness::BackendKind::cuda);
  const auto cpu = make_profile(false, harness::BackendKind::cpu);
  const auto quick = make_profile(true, harness::BackendKind::cuda);
  EXPECT_EQ(gpu.name, "default");
  EXPECT_EQ(cpu.name, "default-cpu");
  EXPECT_LE(cpu.budget_s, 120);
  EXPECT_LT(cpu.collectives.max_bytes, gpu.collectives.max_bytes);
  EXPECT_LT(cpu.train.iterations, gpu.train.iterations);
  EXPECT_LE(quick.budget_s, 15);
  EXPECT_LT(quick.collectives.iterations, gpu.collectives.iterations);
  EXPECT_LT(quick.compute.iterations, gpu.compute.iterations);
}

}  // namespace
}  // namespace gpuscale::launch
