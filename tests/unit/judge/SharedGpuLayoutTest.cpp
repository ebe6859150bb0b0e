// A test layout whose ranks share GPUs: the speed checks are information, the rest stand.
#include "judge/SharedGpuLayout.hpp"

#include <gtest/gtest.h>

#include "results/base/CheckIds.hpp"

namespace gpuscale::judge {
namespace {

using results::Check;
using results::Severity;
namespace check_ids = results::check_ids;

TEST(SharedGpuLayout, SpeedChecksAreSetAsideAndCorrectnessKept) {
  std::vector<Check> checks = {{check_ids::kComputeStraggler, Severity::warning, {1}, "rank 1 is 40% slower"},
                               {check_ids::kGpuSlowSustained, Severity::error, {0}, "burn under the floor"},
                               {check_ids::kCollectiveWrongData, Severity::error, {2}, "wrong data"},
                               {check_ids::kDuplicateGpu, Severity::error, {0, 1}, "two ranks of a node"}};
  set_aside_speed_checks(checks);
  EXPECT_EQ(checks[0].severity, Severity::info);
  EXPECT_EQ(checks[0].message, "not judged (the ranks share GPUs in a test layout): rank 1 is 40% slower");
  EXPECT_EQ(checks[1].severity, Severity::info);
  EXPECT_EQ(checks[2].severity, Severity::error);
  EXPECT_EQ(checks[3].severity, Severity::error);
}

}  // namespace
}  // namespace gpuscale::judge
