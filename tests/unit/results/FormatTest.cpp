#include "results/Format.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "results/RankEnv.hpp"

namespace gpuscale::results {
namespace {

TEST(Format, PciBusIdsOfNvmlAndCudaAgree) {
  EXPECT_EQ(normalize_pci_bus_id("00000000:19:00.0"), "0000:19:00.0");
  EXPECT_EQ(normalize_pci_bus_id("0000:3B:00.0"), "0000:3b:00.0");
}

TEST(Format, Versions) {
  EXPECT_EQ(dotted_version(22803), "2.28.3");
  EXPECT_EQ(dotted_version(91400), "9.14.0");
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
  EXPECT_EQ(dotted_version(0), "-");
}

TEST(Format, FixedAndGiB) {
  EXPECT_EQ(fixed(1.23456, 2), "1.23");
  EXPECT_EQ(fixed(std::nan(""), 2), "-");
  EXPECT_EQ(gib(3ull << 30), "3.0");
}

}  // namespace
}  // namespace gpuscale::results
