#include "workloads/train/Buckets.hpp"

#include <gtest/gtest.h>

namespace gpuscale::workloads {
namespace {

constexpr std::size_t kMiB = 1024 * 1024;
constexpr std::size_t kFloatsPerMiB = kMiB / 4;

TEST(Buckets, ReverseOrderFirstBucketSmallThenCap) {
  // Eight 0.5 MiB layers: the first bucket closes at 1 MiB (layers 7, 6), then 2 MiB buckets.
  const std::vector<std::size_t> layers(8, kFloatsPerMiB / 2);
  const auto plan = assign_buckets(layers, 4, kMiB, 2 * kMiB);
  ASSERT_EQ(plan.buckets.size(), 3u);
  EXPECT_EQ(plan.buckets[0].layers, (std::vector<int>{7, 6}));
  EXPECT_EQ(plan.buckets[1].layers, (std::vector<int>{5, 4, 3, 2}));
  EXPECT_EQ(plan.buckets[2].layers, (std::vector<int>{1, 0}));  // the remainder, closed at the end
}

TEST(Buckets, ExactFitClosesAndOffsetsAreContiguous) {
  const std::vector<std::size_t> layers = {kFloatsPerMiB, kFloatsPerMiB, kFloatsPerMiB};
  const auto plan = assign_buckets(layers, 4, kMiB, 2 * kMiB);
  ASSERT_EQ(plan.buckets.size(), 2u);
  EXPECT_EQ(plan.buckets[0].layers, (std::vector<int>{2}));
  EXPECT_EQ(plan.buckets[1].layers, (std::vector<int>{1, 0}));
  EXPECT_EQ(plan.layer_offset[2], 0u);
  EXPECT_EQ(plan.layer_offset[1], kFloatsPerMiB);
  EXPECT_EQ(plan.layer_offset[0], 2 * kFloatsPerMiB);
  EXPECT_EQ(plan.buckets[1].offset, kFloatsPerMiB);
  EXPECT_EQ(plan.buckets[1].elements, 2 * kFloatsPerMiB);
  EXPECT_EQ(plan.total_elements, 3 * kFloatsPerMiB);
  EXPECT_EQ(plan.bucket_of_layer, (std::vector<int>{1, 1, 0}));
}

TEST(Buckets, ParameterLargerThanCapIsItsOwnBucket) {
  const std::vector<std::size_t> layers = {10, 30 * kFloatsPerMiB, 10};
  const auto plan = assign_buckets(layers, 4, kMiB, 25 * kMiB);
  ASSERT_EQ(plan.buckets.size(), 2u);
  EXPECT_EQ(plan.buckets[0].layers, (std::vector<int>{2, 1}));  // 10 floats, then the big one closes it
  EXPECT_EQ(plan.buckets[1].layers, (std::vector<int>{0}));
  EXPECT_EQ(plan.buckets[0].elements, 10 + 30 * kFloatsPerMiB);
}

TEST(Buckets, MlpPresetGivesOneLayerPerBucket) {
  // 8 x 4096x4096 fp32 = 64 MiB each: every layer exceeds both caps.
  const std::vector<std::size_t> layers(8, 4096u * 4096u);
  const auto plan = assign_buckets(layers, 4, kMiB, 25 * kMiB);
  ASSERT_EQ(plan.buckets.size(), 8u);
  for (std::size_t b = 0; b < 8; ++b) EXPECT_EQ(plan.buckets[b].layers, (std::vector<int>{7 - static_cast<int>(b)}));
}

TEST(Buckets, ZeroCapPutsEverythingInOneBucket) {
  const auto plan = assign_buckets({5, 6, 7}, 4, 0, 0);
  ASSERT_EQ(plan.buckets.size(), 1u);
  EXPECT_EQ(plan.buckets[0].elements, 18u);
}

}  // namespace
}  // namespace gpuscale::workloads
