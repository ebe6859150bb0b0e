#include "harness/HalfFloat.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace gpuscale::harness {
namespace {

TEST(HalfFloat, ExactSmallIntegersRoundTrip) {
  for (int i = -2048; i <= 2048; ++i) {
    EXPECT_EQ(half_to_float(float_to_half(static_cast<float>(i))), static_cast<float>(i));
    if (std::abs(i) <= 256) {
      EXPECT_EQ(bfloat16_to_float(float_to_bfloat16(static_cast<float>(i))), static_cast<float>(i));
    }
  }
}

TEST(HalfFloat, KnownEncodings) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(1e6f), 0x7c00);  // overflow to inf
  EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
  EXPECT_FLOAT_EQ(half_to_float(0x0001), 5.9604645e-08f);  // smallest subnormal
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(NAN))));
  EXPECT_TRUE(std::isnan(bfloat16_to_float(float_to_bfloat16(NAN))));
}

TEST(HalfFloat, RoundsToNearestEven) {
  // 2049 is halfway between 2048 and 2050 in binary16: ties go to the even mantissa (2048).
  EXPECT_EQ(half_to_float(float_to_half(2049.0f)), 2048.0f);
  EXPECT_EQ(half_to_float(float_to_half(2051.0f)), 2052.0f);
  // bfloat16: 257 is halfway between 256 and 258 -> 256.
  EXPECT_EQ(bfloat16_to_float(float_to_bfloat16(257.0f)), 256.0f);
}

}  // namespace
}  // namespace gpuscale::harness
