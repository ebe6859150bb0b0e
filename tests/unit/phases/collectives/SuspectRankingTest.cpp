// Suspect ranking on synthetic rounds: a slow node fails with every partner and is named first; its
// partners' failures with it are explained by it; noise and a bad pair name no one.
#include "phases/collectives/SuspectRanking.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "phases/collectives/CollectiveRecords.hpp"

namespace gpuscale::judge {
namespace {

using namespace results;

// Rounds of 8 nodes in fixed pairs per round (i with i ^ (round + 1) % 8 ... any perfect matching):
// a pair's figure is `slow` when it holds a slow node or is the bad pair, else 100 with `noise`.
IsolationRecord rounds(const std::vector<int>& slow_nodes, std::pair<int, int> bad_pair, double noise,
                       unsigned seed, int rounds = 6) {
  IsolationRecord r;
  r.threshold = 0.5;
  for (int n = 0; n < 8; ++n) r.node_hosts.push_back("h" + std::to_string(n));
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
  for (int round = 0; round < rounds; ++round) {
    const int mask = round % 7 + 1;  // 1..7: each a perfect matching of 0..7, every partner once in 7
    for (int n = 0; n < 8; ++n) {
      const int p = n ^ mask;
      if (p < n) continue;
      bool slow = std::pair(n, p) == bad_pair;
      for (int s : slow_nodes) slow = slow || s == n || s == p;
      const double bw = (slow ? 10.0 : 100.0) * jitter(engine), ar = (slow ? 12.0 : 90.0) * jitter(engine);
      r.matches.push_back({round, n, p, bw, ar});
      r.matches.push_back({round, p, n, bw, ar});
    }
  }
  return r;
}

TEST(SuspectRanking, NamesTheSlowNodeFirstWithEvidence) {
  const auto r = rounds({5}, {-1, -1}, 0.2, 1);
  const auto s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 5);
  EXPECT_EQ(s[0].host, "h5");
  EXPECT_EQ(s[0].rounds_failed, 6);
  EXPECT_EQ(s[0].rounds_counted, 6);
  EXPECT_DOUBLE_EQ(s[0].score, 1.0);
  EXPECT_NE(s[0].evidence.find("6 of 6 rounds under 50% of the median inter-node bandwidth of the round's other pairs"), std::string::npos) << s[0].evidence;
  EXPECT_NE(s[0].evidence.find("its partners passed 30 of 30"), std::string::npos) << s[0].evidence;
}

// Four nodes: each round the slow node's pair is one of two, so a median over every pair would lie
// halfway to it (35 against 100 reads 52% of such a median); the other pairs' median reads 35%.
TEST(SuspectRanking, FourNodesJudgeAgainstTheOtherPair) {
  IsolationRecord r;
  r.threshold = 0.5;
  for (int round = 0; round < 6; ++round) {
    const int mask = round % 3 + 1;
    for (int n = 0; n < 4; ++n) {
      const int p = n ^ mask;
      const double bw = (n == 2 || p == 2) ? 35 : 100;
      r.matches.push_back({round, n, p, bw, bw});
    }
  }
  const auto s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 2);
}

TEST(SuspectRanking, TwoSlowNodesAreBothNamed) {
  const auto s = rank_suspects(rounds({1, 6}, {-1, -1}, 0.1, 2));
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE((s[0].node == 1 && s[1].node == 6) || (s[0].node == 6 && s[1].node == 1));
}

TEST(SuspectRanking, NoiseAndABadPairNameNoOne) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    EXPECT_TRUE(rank_suspects(rounds({}, {-1, -1}, 0.4, seed)).empty()) << seed;
    EXPECT_TRUE(rank_suspects(rounds({}, {2, 3}, 0.4, seed, 7)).empty()) << seed;  // fails once, in 7 rounds
  }
}

// A node stopped from outside most of the time, or slow one way, can be slow in one figure of a
// round only: either figure under the threshold fails the round, and the node is named.
TEST(SuspectRanking, SlowInEitherFigureFails) {
  for (const bool sendrecv : {true, false}) {
    auto r = rounds({}, {-1, -1}, 0.2, 1);
    for (auto& m : r.matches)
      if (m.node == 4 || m.partner == 4) (sendrecv ? m.sendrecv_gbps : m.allreduce_busbw_gbps) /= 10;
    const auto s = rank_suspects(r);
    ASSERT_EQ(s.size(), 1u) << (sendrecv ? "sendrecv" : "allreduce");
    EXPECT_EQ(s[0].node, 4);
    EXPECT_EQ(s[0].rounds_failed, 6);
  }
}

// A figure no rank measured (0 GB/s) says nothing: it neither fails a round nor lowers a median.
TEST(SuspectRanking, AFigureNotMeasuredIsNotJudged) {
  auto r = rounds({}, {-1, -1}, 0.2, 4);
  for (auto& m : r.matches) m.allreduce_busbw_gbps = 0;
  for (const double ratio : round_ratios(r)) EXPECT_GT(ratio, 0.5);
  EXPECT_TRUE(rank_suspects(r).empty());
  for (auto& m : r.matches)
    if (m.node == 3 || m.partner == 3) m.sendrecv_gbps /= 10;
  const auto s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 3);
}

IsolationRecord node_local(const std::vector<double>& gbps) {
  IsolationRecord r;
  r.threshold = 0.5;
  for (std::size_t n = 0; n < gbps.size(); ++n) {
    r.node_hosts.push_back("h" + std::to_string(n));
    r.node_local.push_back({static_cast<int>(n), gbps[n]});
  }
  return r;
}

// The node-local allreduce judged as a node outlier: under the threshold of the nodes' median and
// beyond 3.5 robust sigmas; a spread as wide as the healthy nodes' own names no one.
TEST(SuspectRanking, NodeLocalOutlierIsNamed) {
  auto s = rank_suspects(node_local({0.52, 0.04, 0.55, 0.6, 0.5}));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 1);
  EXPECT_EQ(s[0].host, "h1");
  EXPECT_TRUE(s[0].by_node_local);
  EXPECT_FALSE(s[0].by_bisection);
  EXPECT_NE(s[0].evidence.find("node-local allreduce 0.04 GB/s, 8% of the nodes' median 0.52 GB/s"), std::string::npos)
      << s[0].evidence;
  s = rank_suspects(node_local({1, 1, 0.4, 1}));  // the others all equal: any spread is beyond them
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 2);
  // Healthy nodes 0.12..0.62 GB/s apart: 0.04 lies within their noise (under 1 sigma).
  EXPECT_TRUE(rank_suspects(node_local({0.12, 0.3, 0.62, 0.04})).empty());
  EXPECT_TRUE(rank_suspects(node_local({1, 1, 0.6, 1})).empty());  // not under the threshold
  EXPECT_TRUE(rank_suspects(node_local({1, 0.1})).empty());        // two nodes: no centre
  EXPECT_TRUE(rank_suspects(node_local({1, 0, 1, 1})).empty());    // a one-rank node measured nothing
}

TEST(SuspectRanking, NodeLocalConfirmsTheRounds) {
  auto r = rounds({5}, {-1, -1}, 0.1, 3);
  for (int n = 0; n < 8; ++n) r.node_local.push_back({n, n == 5 ? 1.0 : 10.0});
  const auto s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 5);
  EXPECT_EQ(s[0].rounds_failed, 6);
  EXPECT_TRUE(s[0].by_node_local);
  EXPECT_NE(s[0].evidence.find("; node-local allreduce"), std::string::npos) << s[0].evidence;
}

TEST(SuspectRanking, BisectionConfirmsOrAdds) {
  auto r = rounds({5}, {-1, -1}, 0.1, 3);
  r.bisection_node = 5;
  r.bisection.resize(3);
  auto s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].by_bisection);
  EXPECT_NE(s[0].evidence.find("bisection kept its half at each of 3 steps"), std::string::npos);
  // Rounds that measured node 2 and found it normal overrule a bisection that kept its half.
  r = rounds({}, {-1, -1}, 0.1, 3);
  r.bisection_node = 2;
  EXPECT_TRUE(rank_suspects(r).empty());
  // Where no round measured the node, the bisection names it.
  r.matches.erase(std::remove_if(r.matches.begin(), r.matches.end(),
                                 [](const auto& m) { return m.node == 2 || m.partner == 2; }),
                  r.matches.end());
  s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 2);
  EXPECT_EQ(s[0].rounds_failed, 0);
}

// A budget that let the node play one round, which it failed: too few rounds to name it, too few
// to clear it, so the bisection that kept its half names it.
TEST(SuspectRanking, BisectionNamesANodeThatFailedTooFewRoundsToJudge) {
  auto r = rounds({3}, {-1, -1}, 0.1, 5, 1);
  r.bisection_node = 3;
  r.bisection.resize(3);
  const auto s = rank_suspects(r);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].node, 3);
  EXPECT_TRUE(s[0].by_bisection);
  // One round it passed clears it.
  r = rounds({}, {-1, -1}, 0.1, 5, 1);
  r.bisection_node = 3;
  EXPECT_TRUE(rank_suspects(r).empty());
}

// The record holds the measurements only: the suspects ranked from them are the judge's, kept beside it
// (RunReport::suspects; RunReportJsonTest writes and reads them).
TEST(SuspectRanking, RecordsRoundTripThroughJson) {
  CollectivesRecord c;
  c.isolation = rounds({5}, {-1, -1}, 0.1, 3);
  nlohmann::json j = c;
  EXPECT_FALSE(j.at("isolation").contains("suspects"));
  const auto back = j.get<CollectivesRecord>();
  ASSERT_TRUE(back.isolation);
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(rank_suspects(*back.isolation).at(0).node, 5);
}

}  // namespace
}  // namespace gpuscale::judge
