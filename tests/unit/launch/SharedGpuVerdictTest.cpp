// The shared-GPU test layout at the one place that judges a run's figures: ranks of emulated nodes that
// share GPUs measure each other's load, so speed findings (a slow node, outliers, a straggler) become
// information and do not fail the run, while correctness findings still do. Outside the layout the same
// run fails as before.
#include <algorithm>

#include <gtest/gtest.h>

#include "../results/SampleRun.hpp"
#include "launch/ReportFiles.hpp"
#include "results/base/CheckIds.hpp"

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
                                 [](const results::RuleOutcome& o) { return o.name == "no stragglers, links used well"; });
  ASSERT_NE(rule, r.verdict.rules.end());
  EXPECT_NE(rule->detail.find("GPUSCALE_TEST_SHARE_GPU=1"), std::string::npos) << rule->detail;
  EXPECT_TRUE(std::none_of(r.verdict.rules.begin(), r.verdict.rules.end(),
                           [](const results::RuleOutcome& o) { return o.name == "no stragglers"; }));
  apply_verdict(r, {});  // every write judges again: the message is not wrapped twice
  EXPECT_EQ(find(r, results::check_ids::kSlowNode)->message.find("not judged", 10), std::string::npos);
}

TEST(SharedGpuVerdict, OnSharedGpusCorrectnessStillFails) {
  auto r = fleet(true);
  // Rank 3 received wrong data: the record says so, and the judge raises the finding from it.
  results::CollectiveSweep sweep;
  sweep.op = "allreduce";
  sweep.rows.push_back({});
  sweep.rows[0].size_bytes = 1 << 20;
  sweep.rows[0].out_of_place.wrong = 5;
  sweep.rows[0].out_of_place.wrong_ranks = {3};
  r.collectives->sweeps.push_back(sweep);
  apply_verdict(r, {});
  ASSERT_NE(find(r, results::check_ids::kCollectiveWrongData), nullptr);
  EXPECT_EQ(find(r, results::check_ids::kCollectiveWrongData)->severity, Severity::error);
  EXPECT_FALSE(r.verdict.passed);
}

std::size_t count_of(const results::RunReport& r, const std::string& id) {
  std::size_t n = 0;
  for (const auto& c : r.checks) n += c.id == id ? static_cast<std::size_t>(c.count) : 0;
  return n;
}

// A burn figure under the H200's floor fails a real run; on shared GPUs no floor is judged, and the
// findings stay the same however often the files are written.
TEST(SharedGpuVerdict, FloorsAreNotJudgedOnSharedGpus) {
  auto real = fleet(false);
  real.burn.front().sustained_tflops = 300;
  apply_verdict(real, {});
  EXPECT_FALSE(real.verdict.passed);
  const auto under = std::find_if(real.checks.begin(), real.checks.end(), [](const results::Check& c) {
    return c.id == results::check_ids::kGpuSlowSustained && c.severity == Severity::error;
  });
  ASSERT_NE(under, real.checks.end());

  auto shared = fleet(true);
  shared.burn.front().sustained_tflops = 300;
  apply_verdict(shared, {});
  const auto first = count_of(shared, results::check_ids::kGpuSlowSustained);
  apply_verdict(shared, {});
  apply_verdict(shared, {});
  EXPECT_EQ(count_of(shared, results::check_ids::kGpuSlowSustained), first);
  EXPECT_TRUE(std::none_of(shared.checks.begin(), shared.checks.end(),
                           [](const results::Check& c) { return c.severity == Severity::error &&
                                                                results::check_ids::judges_speed(c.id); }));
}

}  // namespace
}  // namespace gpuscale::launch
