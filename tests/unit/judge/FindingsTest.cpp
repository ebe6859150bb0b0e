// Findings aggregate: one check per id and severity with its count, ranks, nodes and pairs, however
// many ranks raised it; merging again changes nothing; the verdict names each id once with its count.
#include "judge/Findings.hpp"

#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/VerdictRules.hpp"
#include "results/render/FindingText.hpp"

namespace gpuscale::results {
namespace {

using judge::aggregate_findings;
using judge::kMaxFindingDetails;

// `n` ranks in nodes of `per_node`.
std::vector<RankEnv> job(int n, int per_node) {
  std::vector<RankEnv> ranks(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    ranks[static_cast<std::size_t>(r)].rank = r;
    ranks[static_cast<std::size_t>(r)].node = r / per_node;
    ranks[static_cast<std::size_t>(r)].local_rank = r % per_node;
    ranks[static_cast<std::size_t>(r)].host = "h" + std::to_string(r / per_node);
  }
  return ranks;
}

std::vector<Check> one_per_rank(int n) {
  std::vector<Check> checks;
  for (int r = n - 1; r >= 0; --r)
    checks.push_back({"numa-binding", Severity::warning, {r}, "bind rank " + std::to_string(r)});
  return checks;
}

TEST(Findings, OneCheckPerIdWithCountRanksAndNodes) {
  auto checks = one_per_rank(64);
  checks.push_back({"duplicate-gpu", Severity::error, {3, 4}, "two ranks on one GPU", GpuBlock::all_gpu_work});
  const auto merged = aggregate_findings(checks, job(64, 8));
  ASSERT_EQ(merged.size(), 2u);
  const Check& numa = merged[0];
  EXPECT_EQ(numa.id, "numa-binding");
  EXPECT_EQ(numa.count, 64);
  ASSERT_EQ(numa.ranks.size(), 64u);
  EXPECT_EQ(numa.ranks.front(), 0);
  EXPECT_EQ(numa.nodes, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(numa.message, "bind rank 63");  // the first finding's text
  ASSERT_EQ(numa.details.size(), 64u);
  EXPECT_EQ(numa.details.back(), "bind rank 0");
  EXPECT_EQ(finding_name(numa), "numa-binding x64");
  EXPECT_EQ(finding_scope(numa), "ranks 0-63 | nodes 0-7");
  EXPECT_EQ(merged[1].count, 1);
  EXPECT_EQ(merged[1].blocks_gpu_work, GpuBlock::all_gpu_work);
  EXPECT_EQ(merged[1].nodes, (std::vector<int>{0}));
  EXPECT_EQ(finding_name(merged[1]), "duplicate-gpu");
}

// However many findings of one kind, the check keeps a bounded number of their texts and counts them all.
TEST(Findings, DetailsAreBoundedAndCountIsExact) {
  const auto merged = aggregate_findings(one_per_rank(5000), job(5000, 8));
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].count, 5000);
  EXPECT_EQ(merged[0].ranks.size(), 5000u);
  EXPECT_EQ(merged[0].details.size(), kMaxFindingDetails);
  EXPECT_EQ(merged[0].details.front(), "bind rank 4999");
}

TEST(Findings, SeveritiesStayApartAndMergingAgainChangesNothing) {
  std::vector<Check> checks = {{"gpu-in-use", Severity::error, {1}, "pid 7 computes"},
                               {"gpu-in-use", Severity::warning, {2}, "pid 8 holds memory"},
                               {"gpu-in-use", Severity::error, {5}, "pid 9 computes"}};
  const auto once = aggregate_findings(checks, job(8, 4));
  ASSERT_EQ(once.size(), 2u);
  EXPECT_EQ(once[0].count, 2);
  EXPECT_EQ(once[0].nodes, (std::vector<int>{0, 1}));
  const auto twice = aggregate_findings(once, job(8, 4));
  EXPECT_EQ(nlohmann::json(twice), nlohmann::json(once));
  // A later phase's finding of the same id joins the merged one.
  auto later = once;
  later.push_back({"gpu-in-use", Severity::error, {6}, "pid 10 computes"});
  const auto joined = aggregate_findings(later, job(8, 4));
  EXPECT_EQ(joined[0].count, 3);
  EXPECT_EQ(joined[0].details.size(), 3u);
  EXPECT_EQ(joined[0].ranks, (std::vector<int>{1, 5, 6}));
}

TEST(Findings, PairsAndCountRoundTripThroughJson) {
  Check c{"slow-pair", Severity::warning, {0, 1, 5}, "2 of 28 pairs slow"};
  c.count = 2;
  c.pairs = {{0, 1}, {1, 5}};
  const auto merged = aggregate_findings({c}, job(8, 4));
  EXPECT_EQ(finding_scope(merged[0]), "ranks 0-1,5 | nodes 0-1 | 2 pairs");
  const Check back = nlohmann::json(merged[0]).get<Check>();
  EXPECT_EQ(back.pairs, merged[0].pairs);
  EXPECT_EQ(back.count, 2);
  EXPECT_EQ(back.nodes, (std::vector<int>{0, 1}));
}

TEST(Findings, VerdictLineNamesEachIdOnceWithItsCount) {
  RunReport r;
  r.checks = one_per_rank(500);
  const auto v = judge::evaluate_verdict(r, {}, {}, {});
  ASSERT_FALSE(v.rules.empty());
  const auto& rule = *std::find_if(v.rules.begin(), v.rules.end(),
                                   [](const RuleOutcome& o) { return o.name == "no error checks"; });
  EXPECT_EQ(rule.detail, "warnings: numa-binding x500");
}

}  // namespace
}  // namespace gpuscale::results
