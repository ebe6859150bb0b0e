#include "results/world/RankEnv.hpp"

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(RankEnv, Versions) {
  EXPECT_EQ(dotted_version(22803), "2.28.3");
  EXPECT_EQ(dotted_version(91400), "9.14.0");
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
  EXPECT_EQ(dotted_version(0), "-");
}

}  // namespace
}  // namespace gpuscale::results
