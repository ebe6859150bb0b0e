#include "results/world/CpuList.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(CpuList, ParsesRangesAndSingles) {
  EXPECT_EQ(parse_cpulist("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_TRUE(parse_cpulist("").empty());
}

TEST(CpuList, RejectsGarbage) {
  EXPECT_THROW(parse_cpulist("0-"), std::invalid_argument);
  EXPECT_THROW(parse_cpulist("a,b"), std::invalid_argument);
  EXPECT_THROW(parse_cpulist("5-2"), std::invalid_argument);
}

TEST(CpuList, FormatsShortest) {
  EXPECT_EQ(format_cpulist({3, 0, 1, 2, 8, 11, 10}), "0-3,8,10-11");
  EXPECT_EQ(format_cpulist({}), "");
  EXPECT_EQ(format_cpulist({5}), "5");
}

}  // namespace
}  // namespace gpuscale::results
