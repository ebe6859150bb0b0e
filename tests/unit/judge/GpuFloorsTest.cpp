// The floor rule: under the floor, or not a number, falls short; at the floor or above passes.
#include "judge/GpuFloors.hpp"

#include <limits>

#include <gtest/gtest.h>

namespace gpuscale::judge {
namespace {

TEST(GpuFloors, UnderTheFloorOrNotANumberFallsShort) {
  const results::Floor floor{554.0, "56% of the data sheet's 989 dense bf16 TFLOP/s"};
  EXPECT_TRUE(below_floor(553.9, floor));
  EXPECT_TRUE(below_floor(std::numeric_limits<double>::quiet_NaN(), floor));
  EXPECT_FALSE(below_floor(554.0, floor));
  EXPECT_FALSE(below_floor(674.0, floor));
}

}  // namespace
}  // namespace gpuscale::judge
