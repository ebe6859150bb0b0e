#include "results/charts/SvgCanvas.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(SvgCanvas, ChartColoursAreDistinctForAnyNumberOfSeries) {
  for (std::size_t count : {1u, 10u, 11u, 12u, 40u}) {
    std::set<std::string> colours;
    for (std::size_t i = 0; i < count; ++i) colours.insert(svg::colour(i, count));
    EXPECT_EQ(colours.size(), count) << count << " series";
  }
  EXPECT_EQ(svg::colour(0, 3), "#1f77b4") << "the fixed palette while it lasts";
}

}  // namespace
}  // namespace gpuscale::results
