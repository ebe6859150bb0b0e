#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "results/FigureNames.hpp"
#include "results/Format.hpp"
#include "results/HtmlReporter.hpp"
#include "results/VerdictRules.hpp"

namespace gpuscale::results {
namespace {

std::string page(const std::vector<Figure>& extra) {
  auto r = testing::sample_run();
  auto figures = flatten(r);
  figures.insert(figures.end(), extra.begin(), extra.end());
  r.verdict = evaluate_verdict(r, figures, {});
  std::ostringstream out;
  write_html(r, figures, out);
  return out.str();
}

TEST(HtmlReporter, EveryChartAppearsWhenItsFiguresExist) {
  const auto html = page(testing::synthetic_phase_figures());
  for (const char* id : {"chart-busbw-size", "chart-busbw-ranks", "chart-tflops-0", "chart-step-time",
                         "chart-efficiency", "chart-overlap-0", "chart-pairwise-0"})
    EXPECT_NE(html.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  EXPECT_NE(html.find("class=\"bar outlier\""), std::string::npos) << "the slow rank 3 is marked";
  EXPECT_NE(html.find("class=\"chart chart-heat\""), std::string::npos);
}

Figure step_time(const Labels& labels, double gpus, double seconds) {
  Labels l = labels;
  l[names::kGpus] = shortest(gpus);
  return {names::kTrain, names::kStepTime, l, seconds, "s", Better::lower};
}

TEST(HtmlReporter, LegendNamesWhatSetsSeriesApartAndTheChartWidensToFitThem) {
  const Labels ddp{{names::kStrategy, "ddp"}, {names::kModel, "mlp"}, {names::kPrecision, "bf16"},
                   {names::kScaling, "weak"}, {names::kOptions, "grad:bf16 opt-overlap ctas:64(auto) comm:high"}};
  const Labels single{{names::kStrategy, "single"}, {names::kModel, "mlp"}, {names::kPrecision, "bf16"},
                      {names::kScaling, "weak"}};
  const auto html = page({step_time(ddp, 1, 1e-3), step_time(ddp, 2, 1.4e-3), step_time(single, 1, 1e-3)});
  // model, precision and scaling are the same in both series, so the names leave them out.
  EXPECT_NE(html.find("data-name=\"ddp grad:bf16 opt-overlap ctas:64(auto) comm:high\""), std::string::npos);
  EXPECT_NE(html.find("data-name=\"single\""), std::string::npos);
  const auto chart = html.find("id=\"chart-step-time\"");
  ASSERT_NE(chart, std::string::npos);
  const auto width = html.find("width=\"", chart);
  EXPECT_GT(std::stod(html.substr(width + 7)), 680.0) << "a 46-character legend name needs more than 680 px";
}

TEST(HtmlReporter, SizeChartShowsTheSweepsNotTheScalingRuns) {
  std::vector<Figure> busbw;
  const auto add = [&busbw](Labels l) {
    l[names::kOp] = "allreduce";
    l[names::kRanks] = "2";
    busbw.push_back({names::kCollectives, names::kBusBw, l, 100, "GB/s", Better::higher});
  };
  for (const char* bytes : {"1024", "1048576"}) {
    add({{names::kBytes, bytes}, {"placement", "in"}, {"dtype", "float"}});
    add({{names::kBytes, bytes}, {"placement", "out"}, {"dtype", "float"}});
  }
  add({{names::kBytes, "1048576"}});  // a scaling run's point
  const auto html = page(busbw);
  const auto chart = html.substr(html.find("id=\"chart-busbw-size\""));
  EXPECT_NE(chart.find("data-name=\"placement=in\""), std::string::npos);
  EXPECT_EQ(chart.substr(0, chart.find("</svg>")).find("data-name=\"allreduce"), std::string::npos);
}

TEST(HtmlReporter, OneRankGetsNoBusBwChart) {
  std::vector<Figure> one_rank;
  for (double bytes : {1024.0, 1048576.0})
    one_rank.push_back({names::kCollectives, names::kBusBw,
                        {{names::kOp, "broadcast"}, {names::kBytes, shortest(bytes)}, {names::kRanks, "1"}}, 1e6,
                        "GB/s", Better::higher});
  EXPECT_EQ(page(one_rank).find("chart-busbw-size"), std::string::npos);
}

std::vector<Figure> tflops_of_layers(int ranks) {  // 2 layers x 3 passes x 4 precisions
  std::vector<Figure> tflops;
  for (int rank = 0; rank < ranks; ++rank)
    for (const char* layer : {"conv", "matmul"})
      for (const char* pass : {"bwd_data", "bwd_weight", "fwd"})
        for (const char* precision : {"bf16", "fp16", "fp32", "tf32"})
          tflops.push_back({names::kCompute, names::kTflops,
                            {{names::kRank, std::to_string(rank)}, {names::kLayer, layer}, {"pass", pass},
                             {names::kPrecision, precision}},
                            100, "TFLOP/s", Better::higher});
  return tflops;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlReporter, OneRanksTflopsChartsHaveABarPerPrecision) {
  // The sample run's own compute figures are 2 ranks'; a page of one rank's figures alone:
  auto r = testing::sample_run();
  r.compute.clear();
  auto figures = flatten(r);
  const auto one_rank = tflops_of_layers(1);
  figures.insert(figures.end(), one_rank.begin(), one_rank.end());
  std::ostringstream out;
  write_html(r, figures, out);
  const auto html = out.str();
  EXPECT_EQ(count(html, "id=\"chart-tflops-"), 6u) << "one per layer and pass";
  EXPECT_NE(html.find("per GPU, layer=matmul;pass=fwd"), std::string::npos);
  EXPECT_NE(html.find(">precision</text>"), std::string::npos) << "bars by precision";
}

TEST(HtmlReporter, ForwardPassChartsComeFirstSoEveryLayerGetsOne) {
  const auto html = page(tflops_of_layers(2));  // 24 groups for 12 charts
  // Chart headings (the figures table lists every figure's labels too).
  EXPECT_NE(html.find("per GPU, layer=matmul;pass=fwd;precision=tf32"), std::string::npos);
  EXPECT_EQ(html.find("per GPU, layer=matmul;pass=bwd_weight"), std::string::npos) << "past the cap of 12";
}

TEST(HtmlReporter, VerdictComesFirstAndNothingIsFetched) {
  const auto html = page({});
  const auto verdict = html.find("id=\"verdict\"");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, html.find("id=\"environment\""));
  EXPECT_NE(html.find("numa-binding"), std::string::npos);  // the warning check is listed
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("chart-busbw-size"), std::string::npos);  // no collectives figures, no chart
}

TEST(HtmlReporter, EscapesTextFromTheRun) {
  auto r = testing::sample_run();
  r.ranks[0].host = "<b>evil&host</b>";
  std::ostringstream out;
  HtmlReporter().write(r, out);
  EXPECT_EQ(out.str().find("<b>evil"), std::string::npos);
  EXPECT_NE(out.str().find("&lt;b&gt;evil&amp;host"), std::string::npos);
}

}  // namespace
}  // namespace gpuscale::results
