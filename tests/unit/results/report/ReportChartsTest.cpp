// The compute charts past a few nodes: a bar per node (its slowest GPU, named by the node) rather than
// one per rank, so that a chart and the page grow with nodes, not with GPUs.
#include <functional>
#include <sstream>

#include <gtest/gtest.h>

#include "results/report/HtmlReporter.hpp"
#include "results/report/NodeTables.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

// `nodes` nodes of `per_node` ranks (hosts h0, h1, ...); every rank runs 3 layers in 4 precisions
// forward at tflops(rank).
RunReport compute_run(int nodes, int per_node, const std::function<double(int)>& tflops) {
  RunReport r;
  r.world_size = nodes * per_node;
  r.node_count = nodes;
  for (int rank = 0; rank < r.world_size; ++rank) {
    RankEnv e;
    e.rank = rank;
    e.node = rank / per_node;
    e.local_rank = rank % per_node;
    e.host = "h" + std::to_string(e.node);
    r.ranks.push_back(e);
    for (const char* layer : {"linear", "conv2d", "attention"})
      for (const char* precision : {"bf16", "fp16", "fp32", "tf32"}) {
        ComputeRecord c;
        c.rank = rank;
        c.set = "default";
        c.layer = layer;
        c.precision = precision;
        c.pass = "fwd";
        c.time_s.median = 1e-3;
        c.tflops = tflops(rank);
        r.compute.push_back(c);
      }
  }
  return r;
}

std::string html_of(const RunReport& r) {
  std::ostringstream out;
  HtmlReporter().write(r, out);
  return out.str();
}

// The <svg> element whose id is `id`.
std::string chart(const std::string& html, const std::string& id) {
  const auto at = html.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</svg>", at) - at);
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::size_t tflops_chart_bytes(const std::string& html) {
  std::size_t bytes = 0;
  for (int n = 0; n < 12; ++n) bytes += chart(html, "chart-tflops-" + std::to_string(n)).size();
  return bytes;
}

TEST(ReportCharts, PastAFewNodesABarPerNodeNamedByTheNode) {
  // Rank 9 (h2, local rank 1) is slow.
  const auto r = compute_run(6, 4, [](int rank) { return rank == 9 ? 50.0 : 100.0; });
  ASSERT_TRUE(shows_nodes(r));
  const auto svg = chart(html_of(r), "chart-tflops-0");
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 6u) << svg;
  for (int node = 0; node < 6; ++node)
    EXPECT_NE(svg.find(">h" + std::to_string(node) + "</text>"), std::string::npos) << node;
  EXPECT_NE(svg.find(">node</text>"), std::string::npos) << "the x axis names nodes";
  EXPECT_EQ(count_of(svg, "class=\"bar outlier\""), 1u) << "h2 alone, against the median node";
  EXPECT_NE(svg.find("<title>h2 throughput: 50 TFLOP/s</title>"), std::string::npos) << svg;
}

TEST(ReportCharts, ANodesBarIsItsSlowestGpu) {
  // h1's GPUs at 110, 96, 130 and 105; every other GPU at 100.
  const double h1[] = {110, 96, 130, 105};
  const auto r = compute_run(6, 4, [&h1](int rank) { return rank / 4 == 1 ? h1[rank % 4] : 100.0; });
  const auto svg = chart(html_of(r), "chart-tflops-0");
  EXPECT_NE(svg.find("<title>h1 throughput: 96 TFLOP/s</title>"), std::string::npos) << svg;
  EXPECT_EQ(count_of(svg, "class=\"bar outlier\""), 0u) << "4% under the median node is within the mark's 5%";
}

TEST(ReportCharts, AFewNodesKeepABarPerRank) {
  const auto r = compute_run(2, 4, [](int rank) { return rank == 5 ? 50.0 : 100.0; });
  ASSERT_FALSE(shows_nodes(r));
  const auto svg = chart(html_of(r), "chart-tflops-0");
  EXPECT_EQ(count_of(svg, "<rect class=\"bar"), 8u) << svg;
  EXPECT_NE(svg.find("<title>5 throughput: 50 TFLOP/s</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">rank</text>"), std::string::npos);
}

TEST(ReportCharts, ThePageOfManyNodesGrowsWithNodesNotWithBarsPerRank) {
  const auto fast = [](int) { return 100.0; };
  const auto nodes16 = compute_run(16, 4, fast);
  const auto html16 = html_of(nodes16);
  // The same 64 ranks drawn per rank, as at a few nodes: what per-rank bars cost.
  auto per_rank = nodes16;
  per_rank.node_count = kNodeViewAbove;
  const auto per_rank_bytes = tflops_chart_bytes(html_of(per_rank));
  const auto node_bytes = tflops_chart_bytes(html16);
  ASSERT_GT(node_bytes, 0u);
  EXPECT_LT(node_bytes * 2, per_rank_bytes) << "16 bars a chart, not 64";
  // Linear: twice the nodes at most doubles the page (its fixed part stays).
  const auto html8 = html_of(compute_run(8, 4, fast));
  EXPECT_LT(html16.size(), 2 * html8.size()) << html8.size() << " bytes at 8 nodes, " << html16.size() << " at 16";
  // Each rank costs the whole page well under what its bars alone cost in per-rank charts (the figures
  // of one GPU stay in the JSON and CSV).
  const double page_per_rank = static_cast<double>(html16.size() - html8.size()) / 32;
  const double bars_per_rank = static_cast<double>(per_rank_bytes) / 64;
  EXPECT_LT(page_per_rank, bars_per_rank / 2) << page_per_rank << " page bytes per rank, " << bars_per_rank
                                          << " bytes of per-rank bars per rank";
}

}  // namespace
}  // namespace gpuscale::results
