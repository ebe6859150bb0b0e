#include "results/base/Statistics.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuscale::results {
namespace {

TEST(Statistics, EmptyIsNaN) {
  const std::vector<double> none;
  const auto s = summarize(none);
  EXPECT_EQ(s.count, 0u);
  EXPECT_TRUE(std::isnan(s.median));
  EXPECT_TRUE(std::isnan(s.min));
  EXPECT_TRUE(std::isnan(s.stddev));
}

TEST(Statistics, SingleSample) {
  const std::vector<double> one = {2.5};
  const auto s = summarize(one);
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.p10, 2.5);
  EXPECT_DOUBLE_EQ(s.p90, 2.5);
  EXPECT_DOUBLE_EQ(s.stddev, 0.0);
}

TEST(Statistics, MedianOfEvenCountInterpolates) {
  const std::vector<double> v = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
}

TEST(Statistics, PercentilesMatchLinearInterpolation) {
  std::vector<double> v;
  for (int i = 10; i >= 0; --i) v.push_back(i);  // 0..10, unsorted
  EXPECT_DOUBLE_EQ(percentile(v, 0.1), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 0.9), 9.0);
  EXPECT_DOUBLE_EQ(percentile(v, 0.25), 2.5);
  EXPECT_DOUBLE_EQ(percentile(v, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(percentile(v, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(percentile(v, 0.05), 0.5);
}

TEST(Statistics, MeanAndSampleStddev) {
  const std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_DOUBLE_EQ(mean(v), 5.0);
  EXPECT_NEAR(stddev(v), 2.138089935, 1e-9);  // n-1 denominator
  const auto s = summarize(v);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
}

TEST(Statistics, JsonRoundTripKeepsNaNAsNull) {
  const std::vector<double> none;
  const nlohmann::json j = summarize(none);
  EXPECT_TRUE(j.at("median").is_null());
  const auto back = j.get<Summary>();
  EXPECT_TRUE(std::isnan(back.median));

  const std::vector<double> v = {1, 2, 3};
  const auto s = nlohmann::json(summarize(v)).get<Summary>();
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.median, 2);
}

}  // namespace
}  // namespace gpuscale::results
