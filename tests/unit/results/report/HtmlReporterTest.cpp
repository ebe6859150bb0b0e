#include "results/report/RunFigures.hpp"
#include "results/report/HtmlReporter.hpp"

#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/VerdictRules.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/report/Baseline.hpp"
#include "results/report/PhaseSections.hpp"

namespace gpuscale::results {
namespace {

std::string page(const std::vector<Figure>& extra) {
  auto r = testing::sample_run();
  auto figures = flatten(r);
  figures.insert(figures.end(), extra.begin(), extra.end());
  r.verdict = judge::evaluate_verdict(r, figures, {});
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

// Figures measured beside another process on the GPU: marked in the tables with a note under the
// phase's title, and in no chart (an efficiency of 2.2 on one GPU is not drawn).
TEST(HtmlReporter, FiguresBesideAnotherProcessAreMarkedAndLeftOutOfTheCharts) {
  auto figures = testing::synthetic_phase_figures();
  for (auto& f : figures)
    if (f.metric == names::kScalingEfficiency) f.beside_tenant = true;
  const auto html = page(figures);
  EXPECT_EQ(html.find("id=\"chart-efficiency\""), std::string::npos);
  EXPECT_NE(html.find("id=\"chart-step-time\""), std::string::npos) << "its own figures still draw";
  const auto train = html.substr(html.find("id=\"phase-train\""));
  EXPECT_NE(train.find("id=\"beside-tenant-train\""), std::string::npos);
  EXPECT_NE(train.find("measured while another process computed on the GPU"), std::string::npos);
  EXPECT_NE(train.find(std::string(" ") + kBesideTenantMark + "</td>"), std::string::npos) << "no mark in its table";
  EXPECT_EQ(html.find("id=\"beside-tenant-compute\""), std::string::npos);
}

Figure step_time(const Labels& labels, double gpus, double seconds) {
  Labels l = labels;
  l[names::kGpus] = shortest(gpus);
  return {phase::train, names::kStepTime, l, seconds, "s", Better::lower};
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
    busbw.push_back({phase::collectives, names::kBusBw, l, 100, "GB/s", Better::higher});
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
    one_rank.push_back({phase::collectives, names::kBusBw,
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
          tflops.push_back({phase::compute, names::kTflops,
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
  EXPECT_NE(html.find("per GPU, matmul, forward"), std::string::npos);
  EXPECT_NE(html.find(">precision</text>"), std::string::npos) << "bars by precision";
}

TEST(HtmlReporter, ForwardPassChartsComeFirstSoEveryLayerGetsOne) {
  const auto html = page(tflops_of_layers(2));  // 24 groups for 12 charts
  // Chart headings (the figures table lists every figure's labels too).
  EXPECT_NE(html.find("per GPU, matmul, forward, tf32"), std::string::npos);
  EXPECT_EQ(html.find("per GPU, matmul, backward (weights)"), std::string::npos) << "past the cap of 12";
}

TEST(HtmlReporter, VerdictComesFirstAndNothingIsFetched) {
  const auto html = page({});
  const auto verdict = html.find("id=\"verdict\"");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, html.find("id=\"environment\""));
  // The warning check is listed, its row coloured by severity.
  EXPECT_NE(html.find("<tr class=\"WARN\"><td>warning</td><td>numa-binding</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("chart-busbw-size"), std::string::npos);  // no collectives figures, no chart
}

std::string fleet_page(const Baseline* baseline) {
  auto r = testing::sample_fleet_run();
  auto figures = flatten(r);
  const auto phases = testing::fleet_phase_figures();
  figures.insert(figures.end(), phases.begin(), phases.end());
  r.verdict = judge::evaluate_verdict(r, figures, {});
  std::ostringstream out;
  write_html(r, figures, out, baseline);
  return out.str();
}

// The text of the element that `id` opens, up to its section's end.
std::string section(const std::string& html, const std::string& id) {
  const auto at = html.find("id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</section>", at) - at);
}

TEST(HtmlReporter, FleetPageOpensWithTheVerdictThenSummarySuspectsNodesAndPhases) {
  const auto html = fleet_page(nullptr);
  std::size_t last = 0;
  for (const char* id : {"verdict", "failed-checks", "summary", "suspects", "node-heat", "phase-links", "phase-compute",
                         "phase-burn", "phase-collectives", "phase-train", "environment", "figures"}) {
    const auto at = html.find("id=\"" + std::string(id) + "\"");
    ASSERT_NE(at, std::string::npos) << id;
    EXPECT_GT(at, last) << id << " out of order";
    last = at;
  }
  EXPECT_NE(section(html, "verdict").find("n2 failed 6 of 6 rounds; drain it"), std::string::npos) << "the fix";
  const auto suspects = section(html, "suspects");
  EXPECT_NE(suspects.find("<td>n2</td><td>6 of 6</td>"), std::string::npos) << suspects;
  EXPECT_NE(suspects.find("6 of 6 rounds under 45% of the median"), std::string::npos);
  // Every node, folded: n2 failed both its rounds at a tenth of the round's other pair; n1 none.
  EXPECT_NE(suspects.find("<tr><td>2</td><td>n2</td><td>40</td><td>2 of 2</td><td>0.10</td></tr>"), std::string::npos)
      << suspects;
  EXPECT_NE(suspects.find("<tr><td>1</td><td>n1</td><td>90</td><td>0 of 2</td><td>1.00</td></tr>"), std::string::npos)
      << suspects;
}

TEST(HtmlReporter, SummaryHasEachPhasesHeadlineAgainstItsPeak) {
  const auto summary = section(fleet_page(nullptr), "summary");
  // Best of forward (700) and backward (650) per GPU; the median over 8 GPUs; H200's bf16 peak 989.4.
  // Numbers as a person writes them (readable(): "70.7%", "4200", "250 ms"), the model's floor beside them.
  EXPECT_NE(summary.find("<td>Compute: best TFLOP/s, bf16</td><td>700</td><td>TFLOP/s</td><td>8</td><td>-</td>"
                         "<td>989</td><td>70.7%</td><td>NVIDIA H200 data sheet</td>"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("<td>Burn: sustained TFLOP/s, bf16</td><td>800</td><td>TFLOP/s</td><td>8</td><td>554</td>"),
            std::string::npos)
      << summary;
  // PCIe gen5 x16: 16 x 3.938 GB/s.
  EXPECT_NE(summary.find("<td>Host link: pinned copy bandwidth, h2d</td><td>55</td><td>GB/s</td><td>8</td><td>44.1</td>"
                         "<td>63</td><td>87.3%</td><td>PCIe gen5 x16</td>"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("<td>Memory: device copy bandwidth (read + written)</td><td>4200</td><td>GB/s</td><td>8</td>"
                         "<td>3600</td><td>4800</td><td>87.5%</td>"),
            std::string::npos)
      << summary;
  EXPECT_NE(
      summary.find("<td>Collectives: allreduce busbw at 64 MiB over 8 ranks</td><td>180</td><td>GB/s</td><td>job</td>"),
      std::string::npos)
      << summary;
  EXPECT_NE(summary.find("<td>Training: DDP step time, mlp on 8 GPUs</td><td>250 ms</td><td>-</td>"), std::string::npos)
      << summary;
}

TEST(HtmlReporter, SummaryComparesWithTheBaselineThatJudgedTheRun) {
  const auto run = testing::sample_fleet_run();
  Baseline b;
  BaselineGroup g;
  g.shape = machine_shape(run);
  g.figures.push_back({phase::burn,
                       names::kSustainedTflops,
                       {{names::kPrecision, "bf16"}},
                       "TFLOP/s",
                       Better::higher,
                       1000,
                       10,
                       990,
                       1010,
                       8,
                       1});
  b.groups.push_back(g);
  const auto summary = section(fleet_page(&b), "summary");
  EXPECT_NE(summary.find("<td>Burn: sustained TFLOP/s, bf16</td><td>800</td><td>TFLOP/s</td><td>8</td><td>554</td>"
                         "<td>989</td><td>80.9%</td><td>NVIDIA H200 data sheet</td><td>1000</td><td>+20.0%</td>"),
            std::string::npos)
      << summary << "20% under the baseline is 20% worse: + as on the console";
  EXPECT_NE(summary.find("against baseline: +: worse, -: better"), std::string::npos) << "the sign in words";
  EXPECT_EQ(section(fleet_page(nullptr), "summary").find("+20.0%"), std::string::npos);
}

TEST(HtmlReporter, NodeHeatMapMarksTheNodeWhoseWorstGpuLiesOut) {
  const auto heat = section(fleet_page(nullptr), "node-heat");
  ASSERT_FALSE(heat.empty());
  // n2's rank 5 computes 500 of the median node's 700: 28.6% worse, nearly full red. The columns go in
  // the phases' order: host link and device memory (links) before compute.
  EXPECT_NE(
      heat.find("<td>2</td><td>n2</td><td style=\"background:hsl(0,75%,100%)\" data-worse=\"0.000\">55 (+0.0%)</td>"
                "<td style=\"background:hsl(0,75%,100%)\" data-worse=\"0.000\">4200 (+0.0%)</td>"
                "<td style=\"background:hsl(0,75%,57%)\" data-worse=\"0.286\">500 (+28.6%)</td>"),
      std::string::npos)
      << heat;
  EXPECT_NE(
      heat.find("<td>0</td><td>n0</td><td style=\"background:hsl(0,75%,100%)\" data-worse=\"0.000\">55 (+0.0%)</td>"
                "<td style=\"background:hsl(0,75%,100%)\" data-worse=\"0.000\">4200 (+0.0%)</td>"
                "<td style=\"background:hsl(0,75%,100%)\" data-worse=\"0.000\">700 (+0.0%)</td>"),
      std::string::npos)
      << heat;
  EXPECT_EQ(section(page({}), "node-heat"), "") << "one node: no heat map";
}

TEST(HtmlReporter, PhaseSectionsAreTitledInWordsWithTablesOverGpus) {
  const auto compute = section(fleet_page(nullptr), "phase-compute");
  EXPECT_NE(compute.find("<h2>Compute: matrix multiplies and convolutions</h2>"), std::string::npos);
  EXPECT_NE(compute.find("TFLOP/s per GPU, matmul, forward, bf16"), std::string::npos) << compute;
  EXPECT_EQ(compute.find("layer="), std::string::npos);
  // One row per layer, pass and precision over the 8 GPUs: median [min - max].
  EXPECT_NE(compute.find("<td>default</td><td>700 [500 - 700]</td>"), std::string::npos) << compute;
}

TEST(HtmlReporter, EscapesTextFromTheRun) {
  auto r = testing::sample_run();
  r.ranks[0].host = "<b>evil&host</b>";
  std::ostringstream out;
  HtmlReporter().write(r, out);
  EXPECT_EQ(out.str().find("<b>evil"), std::string::npos);
  EXPECT_NE(out.str().find("&lt;b&gt;evil&amp;host"), std::string::npos);
}

// Every text a chart shows (ticks, cell values, legend, tooltips): the <text> and <title> contents.
std::vector<std::string> chart_texts(const std::string& html) {
  std::vector<std::string> out;
  static const std::regex text(R"(<(text|title)[^>]*>([^<]*)</(text|title)>)");
  for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
    const auto svg = html.substr(at, html.find("</svg>", at) - at);
    for (std::sregex_iterator it(svg.begin(), svg.end(), text), end; it != end; ++it) out.push_back((*it)[2]);
  }
  return out;
}

TEST(HtmlReporter, ChartTicksCellsAndTooltipsAreInTheFiguresUnits) {
  const auto html = page(testing::synthetic_phase_figures());
  const auto texts = chart_texts(html);
  ASSERT_GT(texts.size(), 100u);
  // An SI prefix glued to a number ("500u", "1.5m", "4.22k", "64M") where a unit belongs.
  static const std::regex prefixed(R"(\d[munkMGT]\b)");
  for (const auto& t : texts) EXPECT_FALSE(std::regex_search(t, prefixed)) << t;
  const std::set<std::string> all(texts.begin(), texts.end());
  EXPECT_TRUE(all.count("64 MiB")) << "message sizes as the tables write them";
  EXPECT_TRUE(all.count("100 ms")) << "step time ticks in ms";
  EXPECT_TRUE(all.count("80%")) << "efficiency ticks as the tables write a ratio";
  EXPECT_TRUE(all.count("390")) << "a pairwise cell in GB/s, the unit in the title";
  EXPECT_TRUE(all.count("0 -&gt; 1: 390 GB/s")) << "its tooltip with the unit";
  EXPECT_TRUE(all.count("busbw (GB/s)"));
  EXPECT_TRUE(all.count("step time")) << "each tick says its unit: none in the title";
}

TEST(HtmlReporter, EverySeriesOfAChartHasItsOwnColour) {
  std::vector<Figure> steps;
  for (int model = 0; model < 12; ++model)
    for (double gpus : {1.0, 2.0})
      steps.push_back(step_time({{names::kStrategy, "ddp"}, {names::kModel, "m" + std::to_string(model)}}, gpus, 0.1));
  const auto html = page(steps);
  const auto at = html.find("id=\"chart-step-time\"");
  ASSERT_NE(at, std::string::npos);
  const auto svg = html.substr(at, html.find("</svg>", at) - at);
  static const std::regex stroke(R"re(<polyline fill="none" stroke="([^"]+)")re");
  std::set<std::string> colours;
  std::size_t lines = 0;
  for (std::sregex_iterator it(svg.begin(), svg.end(), stroke), end; it != end; ++it, ++lines) colours.insert((*it)[1]);
  EXPECT_EQ(lines, 12u);
  EXPECT_EQ(colours.size(), 12u) << "12 series, 12 colours";
}

TEST(HtmlReporter, AChartWithOneXValueDrawsBars) {
  const Labels ddp{{names::kStrategy, "ddp"}}, dp{{names::kStrategy, "dp"}};
  const auto html = page({step_time(ddp, 8, 0.12), step_time(dp, 8, 0.2)});
  const auto at = html.find("id=\"chart-step-time\"");
  ASSERT_NE(at, std::string::npos);
  const auto svg = html.substr(html.rfind("<svg", at), html.find("</svg>", at) - html.rfind("<svg", at));
  EXPECT_NE(svg.find("class=\"chart chart-bar\""), std::string::npos) << svg;
  EXPECT_EQ(count(svg, "<rect class=\"bar"), 2u) << "a bar per series";
  EXPECT_EQ(count(svg, "<circle"), 0u) << "not a vertical line of dots";
  EXPECT_NE(svg.find("<title>dp: 8 -&gt; 200 ms</title>"), std::string::npos) << svg;
}

TEST(HtmlReporter, OnlyBarsSlowerThanTheMedianAreOutlinedRed) {
  std::vector<Figure> tflops;
  for (int rank = 0; rank < 5; ++rank)
    tflops.push_back({phase::compute, names::kTflops, {{names::kRank, std::to_string(rank)}, {names::kLayer, "mm"}},
                      rank == 1 ? 900.0 : rank == 3 ? 600.0 : 720.0, "TFLOP/s", Better::higher});
  auto r = testing::sample_run();
  r.compute.clear();
  auto figures = flatten(r);
  figures.insert(figures.end(), tflops.begin(), tflops.end());
  std::ostringstream out;
  write_html(r, figures, out);
  const auto html = out.str();
  EXPECT_EQ(count(html, "class=\"bar outlier\""), 1u);
  EXPECT_NE(html.find("class=\"bar outlier\" x=\"347.2\""), std::string::npos) << "rank 3, the fourth of five slots";
  EXPECT_NE(html.find("Outlined red: more than 5% slower than the median GPU (720 TFLOP/s); a faster one is not marked."),
            std::string::npos);
}

TEST(HtmlReporter, NodeHeatMapHasEachNodesNetwork) {
  const auto heat = section(fleet_page(nullptr), "node-heat");
  EXPECT_NE(heat.find("<th>inter-node busbw (GB/s)</th>"), std::string::npos) << heat;
  // n2's rounds moved a tenth: 10 GB/s against the median node's 55, fully red.
  EXPECT_NE(heat.find("data-worse=\"0.818\">10 (+81.8%)</td></tr>"), std::string::npos) << heat;
  EXPECT_NE(heat.find("+: worse, -: better"), std::string::npos);
}

TEST(HtmlReporter, SuspectsSayHowTheyWereNamed) {
  auto r = testing::sample_fleet_run();
  r.suspects.ranked.clear();
  Suspect s;
  s.node = 3;
  s.host = "n3";
  s.by_bisection = true;
  s.evidence = "bisection kept its half at each of 2 steps";
  r.suspects.ranked.push_back(s);
  std::ostringstream out;
  write_html(r, flatten(r), out);
  const auto suspects = section(out.str(), "suspects");
  EXPECT_NE(suspects.find("<th>named by</th>"), std::string::npos);
  EXPECT_NE(suspects.find("<tr><td>1</td><td>3</td><td>n3</td><td>-</td><td>-</td><td>bisection</td>"),
            std::string::npos)
      << "no \"0 of 0, score 0.00\": " << suspects;
  EXPECT_NE(section(fleet_page(nullptr), "suspects").find("<td>6 of 6</td><td>1.00</td><td>rounds of pairs"),
            std::string::npos);
}

TEST(HtmlReporter, OneRankCollectiveShowsNoBusBandwidth) {
  Figure peak{phase::collectives, names::kPeakBusBw, {{names::kOp, "broadcast"}}, 1741, "GB/s", Better::higher};
  peak.local_copy = true;
  Figure allreduce{phase::collectives, names::kBusBw,
                   {{names::kOp, "allreduce"}, {names::kBytes, "1024"}, {names::kRanks, "1"}, {"placement", "out"}},
                   0, "GB/s", Better::higher};
  allreduce.local_copy = true;
  const auto html = page({peak, allreduce});
  const auto collectives = section(html, "phase-collectives");
  EXPECT_EQ(collectives.find("1741"), std::string::npos) << collectives;
  EXPECT_EQ(html.find(">1741<"), std::string::npos) << "nor in the figures table";
  EXPECT_NE(section(html, "summary").find("over 1 rank</td><td>-</td>"), std::string::npos) << section(html, "summary");
}

}  // namespace
}  // namespace gpuscale::results
