// Slow pairs and slow nodes are judged from the collectives record's measurements: the stored `slow`
// and `suspects` of a saved run are the judge's output, written again at each judgement, and a changed
// threshold (the record's, or --expect's) changes them.
#include "phases/collectives/CollectivesChecks.hpp"
#include "phases/collectives/SuspectRanking.hpp"

#include <gtest/gtest.h>

#include "judge/Judge.hpp"
#include "results/base/CheckIds.hpp"

namespace gpuscale::judge {
namespace {

results::PairResult pair(int a, int b, bool same_node, double gbps) {
  results::PairResult p;
  p.a = a, p.b = b, p.same_node = same_node, p.bandwidth_gbps = gbps;
  p.a_label = "h:" + std::to_string(a), p.b_label = "h:" + std::to_string(b);
  return p;
}

results::PairMatrix matrix(double threshold) {
  results::PairMatrix m;
  m.threshold = threshold;
  m.pairs = {pair(0, 1, true, 400), pair(2, 3, true, 390), pair(4, 5, true, 200), pair(0, 2, false, 40),
             pair(1, 3, false, 45)};
  return m;
}

TEST(SlowPairs, AreJudgedWithinTheirClass) {
  // Intra-node median 390: 200 is under 80% of it; 40 GB/s between nodes is slow next to NVLink but
  // normal for the network (its class's median is 42.5).
  EXPECT_EQ(slow_pairs(matrix(0.8)), (std::vector<std::size_t>{2}));
  EXPECT_EQ(slow_pairs(matrix(0.5)), (std::vector<std::size_t>{}));       // 200 is 51% of 390
  EXPECT_EQ(slow_pairs(matrix(0.95)), (std::vector<std::size_t>{2, 3}));  // 40 is 94% of 42.5
}

TEST(SlowPairs, AreOneFindingThatNamesTheSlowest) {
  results::CollectivesRecord record;
  record.pairs.emplace();
  record.pairs->threshold = 0.8;
  for (int i = 0; i < 8; ++i) record.pairs->pairs.push_back(pair(i, i + 8, true, 10 + i));
  for (int i = 0; i < 8; ++i) record.pairs->pairs.push_back(pair(i, 16 + i, true, 100));
  const auto judged = collective_checks(record);
  ASSERT_EQ(judged.checks.size(), 1u);
  const auto& c = judged.checks[0];
  EXPECT_EQ(c.id, results::check_ids::kSlowPair);
  EXPECT_EQ(c.ranks.size(), 16u);
  EXPECT_EQ(judged.marks.size(), 8u);
  EXPECT_NE(c.message.find("8 of 16 pairs under 80%"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("h:0 <-> h:8"), std::string::npos);
  EXPECT_NE(c.message.find("and 3 more"), std::string::npos);
  EXPECT_EQ(c.message.find("h:7 <-> h:15"), std::string::npos);  // the fastest of them is not listed
}

// A saved run's `slow` is not trusted: the judge writes it from the bandwidths and the threshold, and
// --expect's pair_threshold replaces the run's.
TEST(SlowPairs, AreJudgedAgainOnEveryJudgement) {
  RunReport run;
  run.collectives.emplace();
  run.collectives->pairs = matrix(0.8);
  run.marks.add(results::record_mark(CollectivesMark::pair_slow, 0));  // stale: 400 GB/s is no slow pair
  judge(run, {});
  const auto slow = [&] {
    std::vector<bool> out;
    for (std::size_t i = 0; i < run.collectives->pairs->pairs.size(); ++i)
      out.push_back(run.marks.has(CollectivesMark::pair_slow, i));
    return out;
  };
  EXPECT_EQ(slow(), (std::vector<bool>{false, false, true, false, false}));
  results::Expectations stricter;
  stricter.rule_inputs.pair_threshold = 0.95;
  judge(run, stricter);
  EXPECT_EQ(slow(), (std::vector<bool>{false, false, true, true, false}));
  EXPECT_DOUBLE_EQ(run.collectives->pairs->threshold, 0.95);
  results::Expectations looser;
  looser.rule_inputs.pair_threshold = 0.5;
  judge(run, looser);
  EXPECT_EQ(slow(), (std::vector<bool>(5, false)));
  for (const auto& c : run.checks) EXPECT_NE(c.id, results::check_ids::kSlowPair);
}

// Five nodes' node-local allreduce, node 1 far under the others.
results::IsolationRecord isolation(double slow_node_gbps) {
  results::IsolationRecord r;
  r.threshold = 0.5;
  r.node_hosts = {"n0", "n1", "n2", "n3", "n4"};
  r.node_local = {{0, 0.52}, {1, slow_node_gbps}, {2, 0.55}, {3, 0.6}, {4, 0.5}};
  return r;
}

TEST(SlowNode, SuspectsAreRankedFromTheMeasurementsNotTheFile) {
  RunReport run;
  run.collectives.emplace();
  run.collectives->isolation = isolation(0.04);
  results::Suspect stale;
  stale.node = 3, stale.host = "n3", stale.evidence = "as an older run said";
  run.suspects.ranked = {stale};
  judge(run, {});
  const auto& suspects = run.suspects.ranked;
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].node, 1);
  EXPECT_TRUE(suspects[0].by_node_local);
  EXPECT_FALSE(run.suspects.not_rejudged);
  bool named = false;
  for (const auto& c : run.checks)
    if (c.id == results::check_ids::kSlowNode) {
      named = true;
      EXPECT_EQ(c.nodes, std::vector<int>{1});
      EXPECT_NE(c.message.find("node 1 (n1): node-local allreduce"), std::string::npos) << c.message;
    }
  EXPECT_TRUE(named);
  // 0.25 GB/s is 48% of the nodes' median: under a threshold of 0.5, not of 0.4.
  run.collectives->isolation = isolation(0.25);
  judge(run, {});
  EXPECT_EQ(run.suspects.ranked.size(), 1u);
  results::Expectations looser;
  looser.rule_inputs.isolate_threshold = 0.4;
  judge(run, looser);
  EXPECT_TRUE(run.suspects.ranked.empty());
  for (const auto& c : run.checks) EXPECT_NE(c.id, results::check_ids::kSlowNode);
}

// A file that kept its run's suspects but no measurement cannot be judged again: its suspects stand,
// marked so, and the finding says so.
TEST(SlowNode, SuspectsWithoutMeasurementsAreKeptAndMarked) {
  results::CollectivesRecord record;
  record.isolation.emplace();
  results::Suspect s;
  s.node = 2, s.host = "n17", s.evidence = "6 of 6 rounds";
  const results::SuspectList saved{{s}, false};
  EXPECT_TRUE(judge_suspects(*record.isolation, saved).not_rejudged);
  const auto judged = collective_checks(record, {0, 0, 1, 1, 2, 2}, {}, saved);
  ASSERT_EQ(judged.checks.size(), 1u);
  EXPECT_EQ(judged.checks[0].id, results::check_ids::kSlowNode);
  EXPECT_EQ(judged.checks[0].ranks, (std::vector<int>{4, 5}));
  EXPECT_NE(judged.checks[0].message.find("node 2 (n17): 6 of 6 rounds (as the run ranked them"), std::string::npos)
      << judged.checks[0].message;
  // nothing measured, nothing named: it cleared no node
  EXPECT_EQ(collective_checks(record).checks.at(0).id, results::check_ids::kIsolationMeasuredNothing);
}

}  // namespace
}  // namespace gpuscale::judge
