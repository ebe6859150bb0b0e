// The default tolerance of a baseline's figure (its floor, its recorded spread, its worst recorded
// value) and the user's overrides, most specific key first.
#include "judge/BaselineTolerance.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

#include "results/base/Statistics.hpp"

namespace gpuscale::judge {
namespace {

using results::BaselineFigure;
using results::Better;
using results::kMadToSigma;
using results::ToleranceOverrides;
using results::add_tolerance_override;

TEST(BaselineTolerance, FloorSpreadAndWorstRecorded) {
  BaselineFigure f{"compute", "tflops", {}, "TFLOP/s", Better::higher, 100, 0, 100, 100, 3, 3};
  EXPECT_DOUBLE_EQ(default_tolerance(f), kBaselineToleranceFloor);
  f.mad = 4;  // 3 x 1.4826 x 4 / 100
  EXPECT_NEAR(default_tolerance(f), 3 * kMadToSigma * 0.04, 1e-12);
  f.mad = 0;
  f.min = 80;  // the worst value recorded was 20% below
  EXPECT_NEAR(default_tolerance(f), 0.20, 1e-12);
  f.better = Better::lower;  // then only a value above the median counts
  EXPECT_DOUBLE_EQ(default_tolerance(f), kBaselineToleranceFloor);
}

TEST(BaselineTolerance, OverridesMostSpecificKeyWins) {
  BaselineFigure f{"compute", "tflops", {{"layer", "linear"}}, "TFLOP/s", Better::higher, 100, 0, 100, 100, 3, 3};
  ToleranceOverrides o;
  add_tolerance_override("tflops=0.3", o);
  EXPECT_DOUBLE_EQ(tolerance_for(f, o), 0.3);
  add_tolerance_override("compute/tflops=0.2", o);
  EXPECT_DOUBLE_EQ(tolerance_for(f, o), 0.2);
  add_tolerance_override("compute/tflops/layer=linear=0.1", o);
  EXPECT_DOUBLE_EQ(tolerance_for(f, o), 0.1);
  for (const char* bad : {"tflops", "tflops=", "=0.1", "tflops=-0.1", "tflops=x", "no_such_metric=0.1", "tflops=nan"})
    EXPECT_THROW(add_tolerance_override(bad, o), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace gpuscale::judge
