#include "phases/compute/ComputeFigures.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "results/base/FigureNames.hpp"

namespace gpuscale::results {
namespace {

ComputeRecord record(int rank, double median_s, bool passed) {
  ComputeRecord r;
  r.rank = rank;
  r.layer = "linear";
  r.shape = "M4096 N4096 K4096";
  r.precision = "bf16";
  r.pass = "fwd";
  r.set = "default";
  r.tflops = 100.0 / median_s;
  r.time_s.median = median_s;
  r.verification.ran = true;
  r.verification.passed = passed;
  return r;
}

TEST(ComputeFigures, TflopsPerRankAndStragglerSpread) {
  std::vector<Figure> figures;
  append_figures({record(0, 1.0, true), record(1, 1.0, true), record(2, 1.5, true)}, {}, figures);
  const auto tflops = std::count_if(figures.begin(), figures.end(), [](const Figure& f) { return f.metric == names::kTflops; });
  EXPECT_EQ(tflops, 3);
  const auto spread = std::find_if(figures.begin(), figures.end(), [](const Figure& f) { return f.metric == names::kStragglerSpread; });
  ASSERT_NE(spread, figures.end());
  EXPECT_DOUBLE_EQ(spread->value, 0.5);
  EXPECT_EQ(spread->labels.count(names::kRank), 0u);
}

TEST(ComputeFigures, FailedCheckCountsAsWrongAndSkippedRecordsVanish) {
  std::vector<Figure> figures;
  auto skipped = record(1, 1.0, true);
  skipped.skipped_reason = "out of memory";
  append_figures({record(0, 1.0, false), skipped}, {}, figures);
  const auto wrong = std::find_if(figures.begin(), figures.end(), [](const Figure& f) { return f.metric == names::kWrongElements; });
  ASSERT_NE(wrong, figures.end());
  EXPECT_EQ(wrong->value, 1.0);
  EXPECT_EQ(std::count_if(figures.begin(), figures.end(), [](const Figure& f) { return f.metric == names::kTflops; }), 1);
}

}  // namespace
}  // namespace gpuscale::results
