// The shared-GPU test layout at the one place that judges a run's figures: ranks of emulated nodes that
// share GPUs measure each other's load, so speed findings (a slow node, outliers, a straggler) become
// information and do not fail the run, while correctness findings still do. Outside the layout the same
// run fails as before.
#include <algorithm>

#include <gtest/gtest.h>

#include "../results/SampleRun.hpp"
#include "launch/ReportFiles.hpp"
#include "results/CheckIds.hpp"

namespace gpuscale::launch {
namespace {

using results::Severity;

const results::Check* find(const results::RunReport& r, const std::string& id) {
  const auto it = std::find_if(r.checks.begin(), r.checks.end(), [&](const results::Check& c) { return c.id == id; });
  return it == r.checks.end() ? nullptr : &*it;
}

results::RunReport fleet(bool shared_gpu) {
  auto r = results::testing::sample_fleet_run();
  r.emulation = results::Emulation{2, shared_gpu};
  return r;
}

TEST(SharedGpuVerdict, OutsideTheLayoutASlowNodeFailsTheRun) {
  auto r = fleet(false);
  apply_verdict(r, {});
  ASSERT_NE(find(r, results::check_ids::kSlowNode), nullptr);
  EXPECT_EQ(find(r, results::check_ids::kSlowNode)->severity, Severity::error);
  EXPECT_FALSE(r.outliers.empty());
  EXPECT_FALSE(r.verdict.passed);
}

TEST(SharedGpuVerdict, OnSharedGpusSpeedIsNotJudged) {
  auto r = fleet(true);
  apply_verdict(r, {});
  const auto* slow = find(r, results::check_ids::kSlowNode);
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ(slow->severity, Severity::info);
  EXPECT_EQ(slow->message.rfind("not judged (the ranks share GPUs in a test layout): ", 0), 0u) << slow->message;
  EXPECT_TRUE(r.outliers.empty());
  EXPECT_EQ(find(r, results::check_ids::kNodeOutlier), nullptr);
  EXPECT_TRUE(r.verdict.passed) << r.verdict.reasons.front();
  const auto rule = std::find_if(r.verdict.rules.begin(), r.verdict.rules.end(),
                                 [](const results::RuleOutcome& o) { return o.name == "speed judged"; });
  ASSERT_NE(rule, r.verdict.rules.end());
  EXPECT_NE(rule->detail.find("GPUSCALE_TEST_SHARE_GPU=1"), std::string::npos) << rule->detail;
  EXPECT_TRUE(std::none_of(r.verdict.rules.begin(), r.verdict.rules.end(),
                           [](const results::RuleOutcome& o) { return o.name == "no stragglers"; }));
  apply_verdict(r, {});  // every write judges again: the message is not wrapped twice
  EXPECT_EQ(find(r, results::check_ids::kSlowNode)->message.find("not judged", 10), std::string::npos);
}

TEST(SharedGpuVerdict, OnSharedGpusCorrectnessStillFails) {
  auto r = fleet(true);
  r.checks.push_back({results::check_ids::kCollectiveWrongData, Severity::error, {3}, "rank 3 received wrong data"});
  apply_verdict(r, {});
  ASSERT_NE(find(r, results::check_ids::kCollectiveWrongData), nullptr);
  EXPECT_EQ(find(r, results::check_ids::kCollectiveWrongData)->severity, Severity::error);
  EXPECT_FALSE(r.verdict.passed);
}

}  // namespace
}  // namespace gpuscale::launch
