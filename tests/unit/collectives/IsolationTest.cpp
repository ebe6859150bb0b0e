// The plain parts of slow-node isolation: seeded matchings, bisection's decisions, the isolation that
// measured nothing (the slow-pair and slow-node findings: phases/collectives/CollectivesChecksTest).
#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include <cmath>

#include "collectives/Bisection.hpp"
#include "collectives/Isolation.hpp"
#include "collectives/Matching.hpp"
#include "phases/collectives/CollectivesChecks.hpp"

namespace gpuscale::collectives {
namespace {

using judge::collective_checks;

// How many passes of -n operations a step makes: enough that the typical pair spans kIsolationSpanS, no
// more than the slowest first pass fits in kIsolationMaxSpanS, one where a pass is long already.
TEST(IsolationPasses, SpanADutyCycleWithinTheBound) {
  EXPECT_EQ(isolation_passes(0.005, 0.006), 50);  // 5 ms a pass: 50 passes span 0.25 s
  // A pair whose first pass held a stop of 150 ms: 6 passes keep it within 1 s.
  EXPECT_EQ(isolation_passes(0.005, 0.155), 6);
  EXPECT_EQ(isolation_passes(0.3, 0.3), 1);  // already longer than the span
  EXPECT_EQ(isolation_passes(0.005, 2.0), 1);  // a very slow pair: its first pass stands alone
  EXPECT_EQ(isolation_passes(1e-9, 1e-9), kIsolationMaxPasses);
  EXPECT_EQ(isolation_passes(std::nan(""), 0.0), 1);  // nobody measured
  EXPECT_EQ(isolation_passes(INFINITY, 0.0), 1);
}

TEST(Matching, EveryRoundIsAPerfectMatching) {
  for (int nodes : {2, 3, 4, 7, 16, 129}) {
    const auto rounds = random_matchings(nodes, 6, 42);
    ASSERT_EQ(rounds.size(), 6u) << nodes;
    for (const auto& m : rounds) {
      std::set<int> seen;
      for (const auto& [a, b] : m) {
        EXPECT_LT(a, b);
        EXPECT_TRUE(seen.insert(a).second && seen.insert(b).second) << "a node twice in one round";
      }
      EXPECT_EQ(static_cast<int>(seen.size()), nodes - nodes % 2) << nodes;
    }
  }
}

TEST(Matching, SeededAndVaried) {
  EXPECT_EQ(random_matchings(16, 6, 7), random_matchings(16, 6, 7));
  EXPECT_NE(random_matchings(16, 6, 7), random_matchings(16, 6, 8));
  // Four nodes have three matchings: six rounds use each twice, so a node meets every other twice.
  std::map<std::pair<int, int>, int> met;
  for (const auto& m : random_matchings(4, 6, 3))
    for (const auto& p : m) ++met[p];
  ASSERT_EQ(met.size(), 6u);
  for (const auto& [pair, count] : met) EXPECT_EQ(count, 2);
  // Among 64 nodes six rounds need no repeated partner.
  std::set<std::pair<int, int>> pairs;
  std::size_t total = 0;
  for (const auto& m : random_matchings(64, 6, 3)) {
    pairs.insert(m.begin(), m.end());
    total += m.size();
  }
  EXPECT_EQ(pairs.size(), total);
}

TEST(Matching, OddCountsRestInTurn) {
  std::map<int, int> rests;
  for (const auto& m : random_matchings(5, 10, 1)) {
    const auto p = partners(m, 5);
    for (int n = 0; n < 5; ++n) rests[n] += p[static_cast<std::size_t>(n)] < 0;
  }
  for (const auto& [node, count] : rests) EXPECT_EQ(count, 2) << node;
}

// Halves measured as the slowest member's speed: 100 GB/s, or `slow_gbps` with `slow` among them.
HalvesMeasure fabric(int slow, double slow_gbps, int* calls) {
  return [=](const std::vector<int>& a, const std::vector<int>& b) {
    ++*calls;
    auto speed = [&](const std::vector<int>& h) {
      return std::find(h.begin(), h.end(), slow) != h.end() ? slow_gbps : 100.0;
    };
    return std::pair{speed(a), speed(b)};
  };
}

TEST(Bisection, NamesTheSlowNodeInLogSteps) {
  for (int nodes : {4, 5, 16, 17, 1000}) {
    for (int slow : {0, nodes / 3, nodes - 1}) {
      int calls = 0;
      const auto out = bisect(nodes, 0.5, fabric(slow, 10, &calls));
      EXPECT_EQ(out.node, slow) << nodes << " nodes: " << out.note;
      int log2 = 0;
      while ((1 << log2) < nodes) ++log2;
      EXPECT_LE(calls, log2) << nodes;
      for (const auto& step : out.steps) {
        EXPECT_GE(step.a.size(), 2u);  // a lone node runs with a cleared reference
        EXPECT_GE(step.b.size(), 2u);
      }
    }
  }
}

TEST(Bisection, NamesNoneWhenHalvesAreAlike) {
  int calls = 0;
  const auto healthy = bisect(16, 0.5, fabric(-1, 0, &calls));
  EXPECT_EQ(healthy.node, -1);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(healthy.note.empty());
  // 60% of the other half is within the noise a threshold of one half allows.
  EXPECT_EQ(bisect(16, 0.5, fabric(3, 60, &calls)).node, -1);
  EXPECT_EQ(bisect(3, 0.5, fabric(1, 10, &calls)).node, -1);  // too few nodes for a reference
}

// An isolation that ran but measured nothing (its buffers did not fit) cleared no node: it fails,
// with its reason, and names no slow node.
TEST(CollectiveChecks, AnIsolationThatMeasuredNothingFails) {
  results::CollectivesRecord record;
  record.isolation.emplace();
  record.isolation->skipped_reason = "out of memory on rank 3: 1 TiB";
  auto checks = collective_checks(record).checks;
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "isolation-measured-nothing");
  EXPECT_EQ(checks[0].severity, results::Severity::error);
  EXPECT_NE(checks[0].message.find("out of memory on rank 3: 1 TiB"), std::string::npos) << checks[0].message;
  record.isolation->skipped_reason.clear();
  record.isolation->node_local = {{0, 0.0}, {1, 0.0}};  // one-rank nodes, and no round
  checks = collective_checks(record).checks;
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "isolation-measured-nothing");
  record.isolation->matches = {{0, 0, 1, 2.0, 0.0}, {0, 1, 0, 2.0, 0.0}};
  EXPECT_TRUE(collective_checks(record).checks.empty());
}

}  // namespace
}  // namespace gpuscale::collectives
