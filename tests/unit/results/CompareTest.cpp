#include "results/models/Compare.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"

namespace gpuscale::results {
namespace {

std::vector<Figure> with_scaled(std::vector<Figure> figures, const std::string& metric, double factor) {
  for (auto& f : figures)
    if (f.metric == metric && label_or_empty(f, "op") == "allreduce" && label_or_empty(f, "bytes") == "67108864" &&
        label_or_empty(f, "ranks") == "4")
      f.value *= factor;
  return figures;
}

TEST(Compare, IdenticalRunPasses) {
  const auto figures = testing::synthetic_phase_figures();
  const auto c = compare_figures(figures, figures, 0.05);
  EXPECT_EQ(c.changes.size(), figures.size());
  EXPECT_EQ(c.regressions(), 0u);
  std::ostringstream out;
  write_comparison(c, out);
  EXPECT_NE(out.str().find("Compare: PASS"), std::string::npos);
}

TEST(Compare, FlagsAPlantedTenPercentBusBwDrop) {
  const auto base = testing::synthetic_phase_figures();
  const auto c = compare_figures(base, with_scaled(base, "busbw", 0.90), 0.05);
  ASSERT_EQ(c.regressions(), 1u);
  for (const auto& ch : c.changes) {
    if (!ch.regression) continue;
    EXPECT_EQ(ch.base.metric, "busbw");
    EXPECT_EQ(labels_text(ch.base.labels), "bytes=67108864;op=allreduce;ranks=4");
    EXPECT_NEAR(ch.relative_change, -0.10, 1e-12);
  }
  std::ostringstream out;
  write_comparison(c, out);
  EXPECT_NE(out.str().find("REGRESSION"), std::string::npos);
  EXPECT_NE(out.str().find("-10.0%"), std::string::npos);
  EXPECT_NE(out.str().find("Compare: FAIL"), std::string::npos);
}

TEST(Compare, ADropWithinToleranceAndAnImprovementPass) {
  const auto base = testing::synthetic_phase_figures();
  EXPECT_EQ(compare_figures(base, with_scaled(base, "busbw", 0.97), 0.05).regressions(), 0u);
  EXPECT_EQ(compare_figures(base, with_scaled(base, "busbw", 1.5), 0.05).regressions(), 0u);
}

TEST(Compare, LowerIsBetterRegressesUpwardsAndZeroBaseCounts) {
  const std::vector<Figure> base = {{"train", "step_time", {{"gpus", "2"}}, 0.100, "s", Better::lower},
                                    {"env", "wrong_elements", {{"rank", "0"}}, 0, "count", Better::lower},
                                    {"env", "temperature", {{"rank", "0"}}, 30, "C", Better::none}};
  const std::vector<Figure> latest = {{"train", "step_time", {{"gpus", "2"}}, 0.111, "s", Better::lower},
                                      {"env", "wrong_elements", {{"rank", "0"}}, 3, "count", Better::lower},
                                      {"env", "temperature", {{"rank", "0"}}, 60, "C", Better::none},
                                      {"env", "new_metric", {}, 1, "s", Better::lower}};
  const auto c = compare_figures(base, latest, 0.05);
  ASSERT_EQ(c.changes.size(), 3u);
  EXPECT_TRUE(c.changes[0].regression);
  EXPECT_TRUE(c.changes[1].regression);
  EXPECT_FALSE(c.changes[2].regression);  // no direction: listed, never a regression
  EXPECT_EQ(c.only_in_new, 1u);
}

// A change from 0 has no percentage: the table says which way it went, never "inf%".
TEST(Compare, AChangeFromZeroIsInWords) {
  const std::vector<Figure> base = {{"env", "wrong_elements", {}, 0, "count", Better::lower}};
  const std::vector<Figure> latest = {{"env", "wrong_elements", {}, 3, "count", Better::lower}};
  std::ostringstream out;
  write_comparison(compare_figures(base, latest, 0.05), out);
  EXPECT_EQ(out.str().find("inf"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("up from 0"), std::string::npos) << out.str();
}

TEST(Compare, FiguresOfAnotherUnitAreNotMatched) {
  const std::vector<Figure> base = {{"c", "busbw", {}, 100, "GB/s", Better::higher}};
  const std::vector<Figure> latest = {{"c", "busbw", {}, 10, "MB/s", Better::higher}};
  const auto c = compare_figures(base, latest, 0.05);
  EXPECT_TRUE(c.changes.empty());
  EXPECT_EQ(c.only_in_base, 1u);
}

}  // namespace
}  // namespace gpuscale::results
