// One straggler rule: the compute check, the straggler_spread figure, the verdict's "no stragglers"
// line and --expect max_straggler_spread judge the same ranks the same way.
#include "judge/base/Stragglers.hpp"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/VerdictRules.hpp"
#include "phases/compute/ComputeRecord.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Figure.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Statistics.hpp"
#include "results/base/StragglerSpread.hpp"
#include "results/report/Expectations.hpp"
#include "results/report/RunFigures.hpp"
#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

using judge::is_below_median;
using judge::is_straggler;

ComputeRecord timed(int rank, double median_s, const std::string& gpu = "NVIDIA H200") {
  ComputeRecord r;
  r.rank = rank;
  r.gpu = gpu;
  r.layer = "linear";
  r.shape = "M8192 N8192 K8192";
  r.precision = "bf16";
  r.pass = "fwd";
  r.set = "default";
  r.time_s.median = median_s;
  r.tflops = 1.0 / median_s;
  return r;
}

struct Judged {
  std::vector<Check> checks;
  std::vector<double> spreads;
  RuleResult no_stragglers = RuleResult::pass;
  RuleResult expect = RuleResult::pass;
};

Judged judge(std::vector<ComputeRecord> records, double threshold, double max_spread) {
  Judged out;
  RunReport run;
  run.straggler_threshold = threshold;
  out.checks = judge::compute_checks_marked(records, threshold);
  run.compute = records;
  run.checks = out.checks;
  const auto figures = flatten(run);
  for (const auto& f : figures)
    if (f.metric == names::kStragglerSpread) out.spreads.push_back(f.value);
  const auto v = judge::evaluate_verdict(run, figures, parse_expectations({{"max_straggler_spread", max_spread}}));
  for (const auto& rule : v.rules) {
    if (rule.name == "no stragglers") out.no_stragglers = rule.result;
    if (rule.name.rfind("max straggler spread", 0) == 0) out.expect = rule.result;
  }
  return out;
}

TEST(Stragglers, TwoGpusOneHalfSlowerAgreeEverywhere) {
  const auto j = judge({timed(0, 1.0), timed(1, 1.5)}, 0.10, 0.10);
  ASSERT_EQ(j.checks.size(), 1u);
  EXPECT_EQ(j.checks[0].id, check_ids::kComputeStraggler);
  EXPECT_EQ(j.checks[0].ranks, std::vector<int>{1});
  EXPECT_NE(j.checks[0].message.find("20%"), std::string::npos) << j.checks[0].message;
  ASSERT_EQ(j.spreads.size(), 1u);
  EXPECT_DOUBLE_EQ(j.spreads[0], 0.2) << "1.5 s over the median of 1.0 and 1.5 s (1.25 s)";
  EXPECT_EQ(j.no_stragglers, RuleResult::warn);
  EXPECT_EQ(j.expect, RuleResult::fail);
}

TEST(Stragglers, AThresholdAboveTheSpreadPassesEverywhere) {
  const auto j = judge({timed(0, 1.0), timed(1, 1.5)}, 0.25, 0.25);
  EXPECT_TRUE(j.checks.empty());
  ASSERT_EQ(j.spreads.size(), 1u);
  EXPECT_EQ(j.no_stragglers, RuleResult::pass);
  EXPECT_EQ(j.expect, RuleResult::pass);
}

TEST(Stragglers, OddCountsUseTheMiddleRank) {
  const auto j = judge({timed(0, 1.0), timed(1, 1.0), timed(2, 1.5)}, 0.10, 0.10);
  ASSERT_EQ(j.spreads.size(), 1u);
  EXPECT_DOUBLE_EQ(j.spreads[0], 0.5);
  ASSERT_EQ(j.checks.size(), 1u);
  EXPECT_EQ(j.checks[0].ranks, std::vector<int>{2});
}

TEST(Stragglers, CpuBackendRanksAreNeitherCheckedNorCounted) {
  const auto j = judge({timed(0, 1.0, "cpu"), timed(1, 1.5, "cpu")}, 0.10, 0.10);
  EXPECT_TRUE(j.checks.empty());
  EXPECT_TRUE(j.spreads.empty());
  EXPECT_EQ(j.no_stragglers, RuleResult::pass);
}

TEST(Stragglers, SpreadNeedsTwoTimesAndAPositiveMedian) {
  EXPECT_FALSE(straggler_spread(std::vector<double>{1.0}).has_value());
  EXPECT_FALSE(straggler_spread(std::vector<double>{0.0, 0.0}).has_value());
  EXPECT_DOUBLE_EQ(*straggler_spread(std::vector<double>{2.0, 1.0, 1.0, 1.0}), 1.0);
  EXPECT_TRUE(is_straggler(1.2, 1.0, 0.1));
  EXPECT_FALSE(is_straggler(1.05, 1.0, 0.1));
}

// The rule of gpu-slow-sustained, h2d-slow and hbm-slow: a throughput below its group's median.
TEST(Stragglers, BelowTheMedianCountsFromTheMedianOfTwoAndMore) {
  const std::vector<double> two{100.0, 50.0};  // median 75, the mean of the two
  EXPECT_TRUE(is_below_median(50.0, median(two), 0.10));
  EXPECT_FALSE(is_below_median(100.0, median(two), 0.10));
  EXPECT_FALSE(is_below_median(50.0, median(two), 0.40));  // 50 >= 75 x 0.6
  EXPECT_FALSE(is_below_median(67.5, median(two), 0.10));  // exactly 10% below is not more than 10%
  const std::vector<double> three{100.0, 100.0, 85.0};  // median 100
  EXPECT_TRUE(is_below_median(85.0, median(three), 0.10));
  EXPECT_FALSE(is_below_median(85.0, median(three), 0.20));
  EXPECT_FALSE(is_below_median(100.0, median(three), 0.0));
}

}  // namespace
}  // namespace gpuscale::results
