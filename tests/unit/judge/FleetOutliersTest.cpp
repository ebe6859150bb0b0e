// Fleet outliers on synthetic figures: a GPU or node that lies out from its model's median by more
// than the straggler threshold and the noise is named with host and GPU, furthest first; a spread
// within the noise, another GPU model or a better figure names no one.
#include "judge/FleetOutliers.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/OutlierChecks.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/HtmlReporter.hpp"
#include "results/report/NodeTables.hpp"
#include "results/report/RunFigures.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

// 32 ranks in 8 nodes of 4 GPUs of `model` (the last node's of `last_model`), hosts "n0".."n7".
std::vector<RankEnv> fleet(const std::string& model = "H100", const std::string& last_model = "H100") {
  std::vector<RankEnv> ranks(32);
  for (int r = 0; r < 32; ++r) {
    auto& e = ranks[static_cast<std::size_t>(r)];
    e.rank = r;
    e.node = r / 4;
    e.local_rank = r % 4;
    e.host = "n" + std::to_string(e.node);
    e.gpu.emplace();
    e.gpu->name = e.node == 7 ? last_model : model;
  }
  return ranks;
}

// Per rank: compute TFLOP/s (higher is better) and smoke allreduce time (lower is better), each
// within +-noise of 100 and 1 ms; per node: inter-node busbw around 50 GB/s.
std::vector<Figure> figures(double noise, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
  std::vector<Figure> out;
  for (int r = 0; r < 32; ++r) {
    const Labels rank{{names::kRank, std::to_string(r)}, {names::kPrecision, "bf16"}};
    out.push_back({phase::compute, names::kTflops, rank, 100 * jitter(engine), "TFLOP/s", Better::higher});
    out.push_back({phase::env, names::kSmokeAllreduceTime, {{names::kRank, std::to_string(r)}}, 1e-3 * jitter(engine),
                   "s", Better::lower});
  }
  for (int n = 0; n < 8; ++n)
    out.push_back({phase::collectives, names::kInterNodeBusBw, {{names::kNode, std::to_string(n)}},
                   50 * jitter(engine), "GB/s", Better::higher});
  return out;
}

Figure& find(std::vector<Figure>& fs, const char* metric, const char* label, int value) {
  for (auto& f : fs)
    if (f.metric == metric && label_or_empty(f, label) == std::to_string(value)) return f;
  throw std::logic_error("no such figure");
}

TEST(FleetOutliers, NoiseWithinTheThresholdNamesNoOne) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto out = find_outliers(figures(0.04, seed), fleet(), kDefaultStragglerThreshold);
    EXPECT_TRUE(out.empty()) << seed << ": " << nlohmann::json(out).dump();
  }
}

TEST(FleetOutliers, NamesTheSlowGpuAndNodeFurthestFirst) {
  auto fs = figures(0.04, 3);
  find(fs, names::kTflops, names::kRank, 13).value = 70;               // node 3, local rank 1: 30% slow
  find(fs, names::kSmokeAllreduceTime, names::kRank, 22).value = 1.5e-3;  // node 5: 50% slower
  find(fs, names::kInterNodeBusBw, names::kNode, 6).value = 20;         // node 6's links: 60% under
  const auto ranks = fleet();
  const auto out = find_outliers(fs, ranks, kDefaultStragglerThreshold);
  ASSERT_EQ(out.size(), 3u) << nlohmann::json(out).dump();
  EXPECT_EQ(out[0].node, 6);
  EXPECT_EQ(out[0].rank, -1);
  EXPECT_EQ(out[0].host, "n6");
  EXPECT_NEAR(out[0].worse, 0.6, 0.05);
  EXPECT_EQ(out[1].rank, 22);
  EXPECT_EQ(out[2].rank, 13);
  EXPECT_EQ(out[2].gpu, "n3#1");
  EXPECT_EQ(out[2].model, "H100");
  EXPECT_EQ(out[2].figure, "compute tflops precision=bf16");
  EXPECT_NEAR(out[2].worse, 0.3, 0.05);
  EXPECT_GT(out[2].sigmas, kOutlierSigmas);

  const auto checks = outlier_checks(out, kDefaultStragglerThreshold);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].id, check_ids::kNodeOutlier);
  EXPECT_EQ(checks[0].severity, Severity::warning);
  EXPECT_EQ(checks[0].nodes, std::vector<int>{6});
  EXPECT_EQ(checks[2].ranks, std::vector<int>{13});
  EXPECT_NE(checks[2].message.find("node 3 (n3), GPU n3#1: compute tflops precision=bf16 = 70 TFLOP/s, 30% worse"),
            std::string::npos)
      << checks[2].message;
  // Times in the unit a person reads, as the tables write them: "1.5 ms", never "1.5m s".
  EXPECT_NE(checks[1].message.find("= 1.5 ms, 50% worse than the median 998 µs of"), std::string::npos)
      << checks[1].message;
  std::ostringstream table;
  write_outlier_table(out, kDefaultStragglerThreshold, table);
  EXPECT_NE(table.str().find("1.5 ms"), std::string::npos) << table.str();
  EXPECT_EQ(table.str().find("m s"), std::string::npos) << table.str();
}

TEST(FleetOutliers, AUserThresholdAboveTheDropNamesNoOne) {
  auto fs = figures(0.04, 3);
  find(fs, names::kTflops, names::kRank, 13).value = 80;  // 20% slow
  EXPECT_EQ(find_outliers(fs, fleet(), 0.10).size(), 1u);
  EXPECT_TRUE(find_outliers(fs, fleet(), 0.25).empty());
}

// Figures as noisy as +-30% (a shared or oversubscribed machine): a GPU 25% under the median is
// within the noise, and so is every other, though all lie past the threshold.
TEST(FleetOutliers, ASpreadAsWideAsTheDropNamesNoOne) {
  auto fs = figures(0.3, 7);
  find(fs, names::kTflops, names::kRank, 9).value = 75;
  EXPECT_TRUE(find_outliers(fs, fleet(), kDefaultStragglerThreshold).empty());
}

TEST(FleetOutliers, BetterFiguresAndAnotherModelAreNotOutliers) {
  auto fs = figures(0.04, 5);
  find(fs, names::kTflops, names::kRank, 2).value = 150;  // faster: not out
  for (int r = 28; r < 32; ++r) find(fs, names::kTflops, names::kRank, r).value = 60;  // node 7: a slower model
  const auto out = find_outliers(fs, fleet("H100", "A100"), kDefaultStragglerThreshold);
  for (const auto& o : out) EXPECT_NE(o.figure, "compute tflops precision=bf16") << nlohmann::json(o).dump();
  // The same figures on one model: node 7's GPUs are out.
  const auto same = find_outliers(fs, fleet(), kDefaultStragglerThreshold);
  ASSERT_EQ(same.size(), 4u);
  EXPECT_EQ(worst_per_node(same).size(), 1u);
  EXPECT_EQ(outlier_checks(same, kDefaultStragglerThreshold).front().ranks, (std::vector<int>{28, 29, 30, 31}));
}

TEST(FleetOutliers, RoundTripThroughJson) {
  auto fs = figures(0.0, 1);  // no spread at all: any drop past the threshold is out
  find(fs, names::kTflops, names::kRank, 0).value = 50;
  const auto out = find_outliers(fs, fleet(), kDefaultStragglerThreshold);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::isinf(out[0].sigmas));
  const auto back = nlohmann::json(out).get<std::vector<Outlier>>();
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(out));
}

// From the isolation's records: a node whose own links (node-local allreduce) or whose rounds with
// other nodes run slow is a per-node outlier; one bad round with one partner is not.
TEST(FleetOutliers, IsolationFiguresPerNode) {
  RunReport r;
  r.ranks = fleet();
  r.node_count = 8;
  r.collectives.emplace();
  auto& iso = r.collectives->isolation.emplace();
  for (int n = 0; n < 8; ++n) {
    iso.node_local.push_back({n, n == 2 ? 30.0 : 100.0 + n});
    for (int round = 0; round < 6; ++round) {
      const int partner = (n + round + 1) % 8;
      const bool slow = n == 5 || partner == 5 || (round == 0 && n == 1);  // node 5 always, node 1 once
      iso.matches.push_back({round, n, partner, 40, slow ? 10.0 : 50.0 + round});
    }
  }
  const auto out = find_outliers(flatten(r), r.ranks, r.straggler_threshold);
  ASSERT_EQ(out.size(), 2u) << nlohmann::json(out).dump();
  EXPECT_EQ(out[0].node, 5);
  EXPECT_EQ(out[0].figure, "collectives inter_node_busbw");
  EXPECT_EQ(out[0].gpu, "");
  EXPECT_EQ(out[1].node, 2);
  EXPECT_EQ(out[1].figure, "collectives node_local_busbw");
  EXPECT_EQ(out[1].host, "n2");
}

// Past kNodeViewAbove nodes the console's per-node summary has one line per node, naming the
// node's worst GPU per phase; the outlier table one line per node that lies out.
TEST(NodeTables, OneLinePerNode) {
  RunReport r;
  r.ranks = fleet();
  r.node_count = 8;
  r.world_size = 32;
  EXPECT_TRUE(shows_nodes(r));
  r.node_count = kNodeViewAbove;
  EXPECT_FALSE(shows_nodes(r));
  r.node_count = 8;
  for (int rank = 0; rank < 32; ++rank) {
    ComputeRecord c;
    c.rank = rank;
    c.layer = "linear";
    c.precision = "bf16";
    c.time_s.median = rank == 13 ? 2e-3 : 1e-3;
    c.tflops = rank == 13 ? 50 : 100;
    r.compute.push_back(c);
  }
  std::ostringstream nodes;
  write_node_table(r, nodes);
  const std::string text = nodes.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2 + 1 + 8) << text;  // header, note, columns, nodes
  EXPECT_NE(text.find("n3#1 +50%"), std::string::npos) << text;

  const auto out = find_outliers(flatten(r), r.ranks, r.straggler_threshold);
  std::ostringstream table;
  write_outlier_table(out, r.straggler_threshold, table);
  EXPECT_NE(table.str().find("n3#1"), std::string::npos) << table.str();
  std::ostringstream none;
  write_outlier_table({}, r.straggler_threshold, none);
  EXPECT_EQ(none.str(), "");
}

// The HTML's environment section is the same one row per node, not one per rank.
TEST(NodeTables, HtmlShowsNodesNotRanks) {
  RunReport r;
  r.ranks = fleet();
  r.node_count = 8;
  r.world_size = 32;
  std::ostringstream html;
  HtmlReporter().write(r, html);
  const std::string text = html.str();
  EXPECT_NE(text.find("<table id=\"nodes\">"), std::string::npos);
  EXPECT_EQ(text.find("<td>n3</td><td>3</td>"), std::string::npos) << "a per-rank row (host, node) is left";
  r.node_count = kNodeViewAbove;
  std::ostringstream per_rank;
  HtmlReporter().write(r, per_rank);
  EXPECT_EQ(per_rank.str().find("<table id=\"nodes\">"), std::string::npos);
  EXPECT_NE(per_rank.str().find("<td>n3</td><td>3</td>"), std::string::npos);
}

// However many nodes lie out, the console lists the furthest kOutlierRows and counts the rest.
TEST(NodeTables, OutlierTableStopsAtItsRowLimit) {
  std::vector<Outlier> out;
  const int nodes = static_cast<int>(kOutlierRows) + 7;
  for (int n = 0; n < nodes; ++n) {
    Outlier o;
    o.node = n;
    o.host = "node" + std::to_string(n);
    o.figure = "compute tflops";
    o.worse = 0.6 - 0.01 * n;  // furthest first, as find_outliers orders them
    out.push_back(o);
  }
  std::ostringstream table;
  write_outlier_table(out, kDefaultStragglerThreshold, table);
  const std::string text = table.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3 + static_cast<long>(kOutlierRows) + 1) << text;
  EXPECT_NE(text.find("node0 "), std::string::npos) << text;
  EXPECT_EQ(text.find("node" + std::to_string(nodes - 1) + " "), std::string::npos) << text;
  EXPECT_NE(text.find("and 7 more nodes out"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpuscale::results
