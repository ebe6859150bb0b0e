#include "results/models/AlphaBetaFit.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuscale::results {
namespace {

constexpr double kAlpha = 7e-6;              // s
constexpr double kBeta = 1.0 / 150e9;        // s/B: 150 GB/s

// A sweep of 8 B .. 1 GiB by factor 2 (28 sizes) of t = alpha + n beta, times (1 + noise).
std::vector<FitPoint> sweep(double alpha, double beta, double noise, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> jitter(0.0, noise);
  std::vector<FitPoint> points;
  for (std::uint64_t n = 8; n <= (1ull << 30); n *= 2)
    points.push_back({n, (alpha + static_cast<double>(n) * beta) * (1 + (noise > 0 ? jitter(rng) : 0.0))});
  return points;
}

double relative(double got, double want) { return std::abs(got / want - 1); }

TEST(AlphaBetaFit, RecoversExactAlphaAndBeta) {
  const auto fit = fit_alpha_beta(sweep(kAlpha, kBeta, 0, 1));
  ASSERT_TRUE(fit);
  EXPECT_LT(relative(fit->alpha_s, kAlpha), 1e-9);
  EXPECT_LT(relative(fit->beta_s_per_byte, kBeta), 1e-9);
  EXPECT_EQ(fit->points_fitted, 14);
  EXPECT_EQ(fit->points_held_out, 14);
  ASSERT_TRUE(fit->held_out_max_error);
  EXPECT_LT(*fit->held_out_max_error, 1e-9);
}

TEST(AlphaBetaFit, RecoversWithinTwoPercentUnderNoise) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto fit = fit_alpha_beta(sweep(kAlpha, kBeta, 0.01, seed));
    ASSERT_TRUE(fit);
    EXPECT_LT(relative(fit->alpha_s, kAlpha), 0.02) << "seed " << seed;
    EXPECT_LT(relative(fit->beta_s_per_byte, kBeta), 0.02) << "seed " << seed;
    ASSERT_TRUE(fit->held_out_median_error);
    EXPECT_LT(*fit->held_out_median_error, 0.03) << "seed " << seed;
  }
}

// One fitted size three times too slow (a hiccup) must not move the line: the Huber weights.
TEST(AlphaBetaFit, ResistsAnOutlyingSize) {
  for (const std::size_t bad : {std::size_t{0}, std::size_t{14}, std::size_t{26}}) {  // all fitted (even index)
    auto points = sweep(kAlpha, kBeta, 0.005, 3);
    points[bad].time_s *= 3;
    const auto fit = fit_alpha_beta(points);
    ASSERT_TRUE(fit);
    EXPECT_LT(relative(fit->alpha_s, kAlpha), 0.02) << "outlier at " << points[bad].bytes;
    EXPECT_LT(relative(fit->beta_s_per_byte, kBeta), 0.02) << "outlier at " << points[bad].bytes;
  }
}

// The held-out error measures what the fit did not see: a step in the held-out middle sizes shows.
TEST(AlphaBetaFit, ReportsTheErrorOnHeldOutSizes) {
  auto points = sweep(kAlpha, kBeta, 0, 1);
  points[13].time_s *= 1.5;  // odd index: held out
  const auto fit = fit_alpha_beta(points);
  ASSERT_TRUE(fit);
  EXPECT_LT(relative(fit->beta_s_per_byte, kBeta), 1e-9);
  ASSERT_TRUE(fit->held_out_max_error);
  EXPECT_NEAR(*fit->held_out_max_error, 1.0 / 3.0, 1e-9);  // predicted / (1.5 x predicted) - 1
}

TEST(AlphaBetaFit, FitsEveryPointWhenTooFewToHoldOut) {
  const std::vector<FitPoint> points = {{8, kAlpha + 8 * kBeta}, {1 << 20, kAlpha + (1 << 20) * kBeta},
                                        {64 << 20, kAlpha + (64 << 20) * kBeta}};
  const auto fit = fit_alpha_beta(points);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->points_fitted, 3);
  EXPECT_EQ(fit->points_held_out, 0);
  EXPECT_FALSE(fit->held_out_max_error);
  EXPECT_LT(relative(fit->beta_s_per_byte, kBeta), 1e-9);
}

TEST(AlphaBetaFit, NeverNegative) {
  // Pure bandwidth with noise would fit a slightly negative alpha; pure latency a negative beta.
  const auto bandwidth = fit_alpha_beta(sweep(0, kBeta, 0.01, 5));
  ASSERT_TRUE(bandwidth);
  EXPECT_GE(bandwidth->alpha_s, 0);
  EXPECT_LT(relative(bandwidth->beta_s_per_byte, kBeta), 0.02);
  const auto latency = fit_alpha_beta(sweep(kAlpha, 0, 0.01, 5));
  ASSERT_TRUE(latency);
  EXPECT_GE(latency->beta_s_per_byte, 0);
  EXPECT_LT(relative(latency->alpha_s, kAlpha), 0.02);
}

TEST(AlphaBetaFit, RefusesTooLittleOrBadData) {
  EXPECT_FALSE(fit_alpha_beta(std::vector<FitPoint>{{8, 1e-5}}));
  EXPECT_FALSE(fit_alpha_beta(std::vector<FitPoint>{{8, 1e-5}, {8, 2e-5}}));
  EXPECT_FALSE(fit_alpha_beta(std::vector<FitPoint>{{8, 1e-5}, {16, 0}}));
  EXPECT_FALSE(fit_alpha_beta(std::vector<FitPoint>{{0, 1e-5}, {16, 1e-5}}));  // zero bytes are ignored
}

TEST(AlphaBetaFit, JsonRoundTrip) {
  const auto fit = fit_alpha_beta(sweep(kAlpha, kBeta, 0.01, 2));
  ASSERT_TRUE(fit);
  const nlohmann::json j = *fit;
  const auto back = j.get<AlphaBetaFit>();
  EXPECT_EQ(back.alpha_s, fit->alpha_s);
  EXPECT_EQ(back.beta_s_per_byte, fit->beta_s_per_byte);
  EXPECT_EQ(back.held_out_max_error, fit->held_out_max_error);
  EXPECT_EQ(back.points_held_out, 14);
}

}  // namespace
}  // namespace gpuscale::results
