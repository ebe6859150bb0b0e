#include "judge/Regression.hpp"

#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "results/base/FigureNoise.hpp"

namespace gpuscale::results {
namespace {

using judge::comparison_fails;
using judge::compare_figures;

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
  write_comparison(c, {}, comparison_fails(c, {}), out);
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
  write_comparison(c, {}, comparison_fails(c, {}), out);
  EXPECT_NE(out.str().find("REGRESSION"), std::string::npos);
  EXPECT_NE(out.str().find("-10.0%"), std::string::npos);
  EXPECT_NE(out.str().find("Compare: FAIL (1 regressed)"), std::string::npos) << out.str();
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
  const auto c = compare_figures(base, latest, 0.05);
  write_comparison(c, {}, comparison_fails(c, {}), out);
  EXPECT_EQ(out.str().find("inf"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("up from 0"), std::string::npos) << out.str();
}

TEST(Compare, FiguresOfAnotherUnitAreNotMatched) {
  const std::vector<Figure> base = {{"c", "busbw", {}, 100, "GB/s", Better::higher}};
  const std::vector<Figure> latest = {{"c", "busbw", {}, 10, "MB/s", Better::higher}};
  const auto c = compare_figures(base, latest, 0.05);
  EXPECT_TRUE(c.changes.empty());
  EXPECT_EQ(c.missing.size(), 1u);
}

Figure with_noise(Figure f, double spread, double op_time_s = 0) {
  f.spread = spread;
  f.op_time_s = op_time_s;
  return f;
}

// A move past the tolerance is a regression only past the noise both runs measured: their p10..p90
// bands (half-widths in the figure's unit) must not overlap.
TEST(Compare, AMoveWithinBothRunsBandsIsNoRegression) {
  const Figure base = with_noise({"collectives", "busbw", {{"op", "allreduce"}}, 100, "GB/s", Better::higher}, 8);
  auto moved = [&](double value, double spread) {
    Figure f = base;
    f.value = value;
    f.spread = spread;
    return compare_figures({base}, {f}, 0.05);
  };
  EXPECT_EQ(moved(90, 5).regressions(), 0u);  // -10% but moved 10 < 8 + 5
  EXPECT_EQ(moved(86, 5).regressions(), 1u);  // moved 14 > 13
  EXPECT_EQ(moved(97, 0).regressions(), 0u);  // within the tolerance whatever the noise
  const Figure quiet = with_noise(base, 0);
  EXPECT_EQ(compare_figures({quiet}, {with_noise({"collectives", "busbw", {{"op", "allreduce"}}, 94, "GB/s",
                                                  Better::higher}, 0)}, 0.05).regressions(), 1u);
}

// One-rank collectives copy their own memory and sub-10-us times are launch noise: listed, never judged.
TEST(Compare, LocalCopiesAndMicrosecondTimesAreNotJudged) {
  Figure copy{"collectives", "busbw", {{"op", "broadcast"}, {"ranks", "1"}}, 500, "GB/s", Better::higher};
  copy.local_copy = true;
  const Figure tiny{"collectives", "time", {{"op", "allreduce"}}, 5e-6, "s", Better::lower};
  const Figure quick_op = with_noise({"collectives", "algbw", {{"op", "allreduce"}}, 2, "GB/s", Better::higher}, 0, 8e-6);
  Figure copy_new = copy, tiny_new = tiny, quick_new = quick_op;
  copy_new.value = 50;
  tiny_new.value = 9e-6;
  quick_new.value = 1;
  const auto c = compare_figures({copy, tiny, quick_op}, {copy_new, tiny_new, quick_new}, 0.05);
  EXPECT_EQ(c.regressions(), 0u);
  EXPECT_EQ(c.not_judged(), 3u);
  EXPECT_EQ(c.changes[0].not_judged, "one rank: a local copy");
  EXPECT_EQ(c.changes[1].not_judged, "timed under 10 us (5.0 us)");
  EXPECT_EQ(c.changes[2].not_judged, "timed under 10 us (8.0 us)");
  std::ostringstream out;
  write_comparison(c, {}, comparison_fails(c, {}), out);
  EXPECT_NE(out.str().find("not judged: one rank: a local copy"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("3 not judged"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Compare: PASS"), std::string::npos) << out.str();
  // A time of 10 us or more in both runs is judged.
  Figure slow = tiny, slow_new = tiny;
  slow.value = 20e-6;
  slow_new.value = 40e-6;
  EXPECT_EQ(compare_figures({slow}, {slow_new}, 0.05).regressions(), 1u);
}

// A difference of two times (exposed communication of one GPU) sits near 0: a move "up from 0" by less
// than the shortest judged time is timer resolution, not a regression; one of 20 us is judged.
TEST(Compare, TimesCloserThanTheShortestJudgedTimeAreNoRegression) {
  const Figure base = with_noise({"train", "exposed_comm_time", {{"gpus", "1"}}, 0, "s", Better::lower}, 0, 0.01);
  Figure crept = base, grew = base;
  crept.value = 4.46e-7;
  grew.value = 20e-6;
  EXPECT_EQ(compare_figures({base}, {crept}, 0.05).regressions(), 0u);
  EXPECT_EQ(compare_figures({base}, {grew}, 0.05).regressions(), 1u);
}

// A figure the base run measured and the new one lacks fails compare, named, unless allowed.
TEST(Compare, MissingFiguresFailUnlessAllowed) {
  const std::vector<Figure> base = {{"train", "step_time", {{"gpus", "2"}}, 0.1, "s", Better::lower},
                                    {"compute", "tflops", {{"layer", "linear"}}, 50, "TFLOP/s", Better::higher}};
  const std::vector<Figure> latest = {base[0]};
  const auto c = compare_figures(base, latest, 0.05);
  ASSERT_EQ(c.missing.size(), 1u);
  EXPECT_TRUE(comparison_fails(c, {}));
  std::ostringstream out;
  write_comparison(c, {}, comparison_fails(c, {}), out);
  EXPECT_NE(out.str().find("Missing from the new run (1):\n  compute tflops layer=linear (base 50 TFLOP/s)"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("Compare: FAIL (1 missing from the new run)"), std::string::npos) << out.str();
  EXPECT_FALSE(comparison_fails(c, {true, {}}));
  std::ostringstream allowed;
  write_comparison(c, {true, {}}, comparison_fails(c, {true, {}}), allowed);
  EXPECT_NE(allowed.str().find("allowed by --allow-missing"), std::string::npos) << allowed.str();
  EXPECT_NE(allowed.str().find("Compare: PASS"), std::string::npos) << allowed.str();
}

// A figure of a phase whose budget the new run spent is the budget's doing, and a check not raised
// again is no figure lost: neither fails compare.
TEST(Compare, BudgetDropsAndClearedChecksAreNotMissing) {
  const std::vector<Figure> base = {{"train", "step_time", {{"gpus", "2"}}, 0.1, "s", Better::lower},
                                    {"checks", "budget-exceeded", {{"severity", "warning"}}, 1, "count", Better::lower},
                                    {"compute", "tflops", {{"layer", "linear"}}, 50, "TFLOP/s", Better::higher}};
  const auto c = compare_figures(base, {base[2]}, 0.05);
  EXPECT_EQ(c.missing.size(), 1u);
  EXPECT_EQ(c.checks_cleared, 1u);
  const CompareVerdict dropped{false, {}, {{"train", "mlp bf16: 2 training configurations"}}};
  EXPECT_FALSE(comparison_fails(c, dropped));
  EXPECT_EQ(unexplained_missing(c, dropped), 0u);
  std::ostringstream out;
  write_comparison(c, dropped, comparison_fails(c, dropped), out);
  EXPECT_NE(out.str().find("Missing where the new run's budget dropped work (1, not counted"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("  train dropped mlp bf16: 2 training configurations\n  train step_time gpus=2"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("0 missing from the new run (1 more where its budget dropped work), 0 only in the new "
                           "run; 1 check of the base run not raised again"),
            std::string::npos)
      << out.str();
  EXPECT_TRUE(comparison_fails(c, {}));  // the same figure missing without a budget's word fails
}

// Pageable host copies move between healthy runs by more than their samples spread within one: listed,
// not judged by two runs.
TEST(Compare, FiguresThatVaryBetweenRunsAreNotJudged) {
  Figure pageable{"links", "host_copy_bw", {{"memory", "pageable"}}, 10, "GB/s", Better::higher};
  pageable.varies_between_runs = true;
  Figure slower = pageable;
  slower.value = 7;
  const auto c = compare_figures({pageable}, {slower}, 0.05);
  EXPECT_EQ(c.regressions(), 0u);
  EXPECT_EQ(c.changes[0].not_judged, "varies between healthy runs more than within one (a baseline of several runs judges it)");
  EXPECT_EQ(not_judged_reason(pageable), "");  // a baseline's spread over runs judges it
}

// A new run whose own verdict failed fails compare, whatever its figures say.
TEST(Compare, ANewRunThatFailedItsOwnVerdictFails) {
  const auto figures = testing::synthetic_phase_figures();
  const auto c = compare_figures(figures, figures, 0.05);
  const CompareVerdict verdict{false, {"FAIL  compute measured something  (every item skipped)"}};
  EXPECT_TRUE(comparison_fails(c, verdict));
  std::ostringstream out;
  write_comparison(c, verdict, comparison_fails(c, verdict), out);
  EXPECT_NE(out.str().find("The new run's own verdict failed:\n  FAIL  compute measured something"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("Compare: FAIL (the new run's own verdict failed)"), std::string::npos) << out.str();
}

// The rule compare and --baseline share: past the tolerance the worse way only, a NaN change is worse
// where the figure has a direction, and a figure without one never regresses.
TEST(Regression, WorseDirectionPastTheToleranceOnly) {
  EXPECT_TRUE(judge::regressed(Better::higher, -0.06, 0.05));
  EXPECT_FALSE(judge::regressed(Better::higher, -0.05, 0.05));
  EXPECT_FALSE(judge::regressed(Better::higher, 0.5, 0.05));
  EXPECT_TRUE(judge::regressed(Better::lower, 0.06, 0.05));
  EXPECT_FALSE(judge::regressed(Better::lower, -0.5, 0.05));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(judge::regressed(Better::lower, nan, 0.05));
  EXPECT_FALSE(judge::regressed(Better::none, nan, 0.05));
  EXPECT_FALSE(judge::regressed(Better::none, 10.0, 0.05));
}

}  // namespace
}  // namespace gpuscale::results
