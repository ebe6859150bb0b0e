#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
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
                         "chart-efficiency", "chart-overlap", "chart-pairwise-0"})
    EXPECT_NE(html.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  EXPECT_NE(html.find("class=\"bar outlier\""), std::string::npos) << "the slow rank 3 is marked";
  EXPECT_NE(html.find("class=\"chart chart-heat\""), std::string::npos);
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
