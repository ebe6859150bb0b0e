// The burn's window arithmetic: work over wall time in fixed windows, the sustained figure after the
// first second, and what the telemetry samples add up to.
#include "phases/burn/BurnSummary.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuscale::results {
namespace {

// Completions every `step_s` at `tflops`, from 0 to `end_s`.
std::vector<BurnProgress> steady(double tflops, double step_s, double end_s, double start_flops = 0,
                                 double start_s = 0) {
  std::vector<BurnProgress> p;
  for (int i = 1; start_s + i * step_s <= end_s + 1e-9; ++i)
    p.push_back({start_s + i * step_s, start_flops + tflops * 1e12 * i * step_s});
  return p;
}

TEST(BurnSummary, WorkIsInterpolatedBetweenCompletions) {
  const std::vector<BurnProgress> p = {{1.0, 10}, {3.0, 30}};
  EXPECT_DOUBLE_EQ(work_at(p, 0.5), 5);
  EXPECT_DOUBLE_EQ(work_at(p, 2.0), 20);
  EXPECT_DOUBLE_EQ(work_at(p, 9.0), 30);  // after the last completion: nothing more was done
  EXPECT_DOUBLE_EQ(work_at({}, 1.0), 0);
}

TEST(BurnSummary, WindowsCountWorkFinishedInsideThem) {
  // 100 TFLOP/s, completions every 0.1 s for 1 s: four whole 0.25 s windows at 100.
  const auto p = steady(100, 0.1, 1.0);
  const auto w = burn_windows(p, 0.25);
  ASSERT_EQ(w.size(), 4u);
  for (const auto& window : w) EXPECT_NEAR(window.tflops, 100, 1e-9);
  EXPECT_DOUBLE_EQ(w[3].start_s, 0.75);
}

TEST(BurnSummary, AStallShowsInItsWindowAndTheSustainedFigureIsWallClock) {
  // 200 TFLOP/s for 2 s, nothing for 1 s (another process holds the GPU), 200 again for 1 s.
  auto p = steady(200, 0.05, 2.0);
  const double done = p.back().flops;
  const auto rest = steady(200, 0.05, 4.0, done, 3.0);
  p.insert(p.end(), rest.begin(), rest.end());
  BurnRecord r;
  r.progress = p;
  r.window_s = 0.5;
  summarize_burn(r);
  EXPECT_NEAR(r.elapsed_s, 4.0, 1e-9);
  EXPECT_DOUBLE_EQ(r.settle_s, 1.0);
  // Between the completion at 2.0 s and the next at 3.05 s the work is spread over the gap.
  ASSERT_EQ(r.windows.size(), 8u);
  EXPECT_NEAR(r.windows[0].tflops, 200, 1e-6);
  EXPECT_LT(r.windows[4].tflops, 20);
  // After the first second: 3 s of wall time holding 2 s of work at 200.
  EXPECT_NEAR(r.sustained_tflops, 200.0 * 2 / 3, 1e-6);
  EXPECT_NEAR(r.first_tflops, 200, 1e-6);
  EXPECT_NEAR(r.first_to_sustained, 1.5, 1e-9);
}

TEST(BurnSummary, ShortBurnsSettleForAQuarterOfTheirLength) {
  EXPECT_DOUBLE_EQ(burn_settle_s(60), 1.0);
  EXPECT_DOUBLE_EQ(burn_settle_s(2), 0.5);
}

TEST(BurnSummary, SamplesGiveClockPercentilesPeakTemperatureAndThrottleShares) {
  BurnRecord r;
  r.progress = steady(100, 0.1, 4.0);
  for (int i = 0; i < 40; ++i) {
    BurnSample s;
    s.t_s = 0.1 * i;
    s.sm_clock_mhz = i < 10 ? 1980 : 1700 + i;  // the first second at the top clock is left out
    s.power_w = 700;
    s.temperature_c = 50 + i;
    s.clock_event_reasons = i % 4 == 0 ? 0x4 | 0x40 : 0x4;  // power cap always, hw thermal in a quarter
    r.samples.push_back(s);
  }
  summarize_burn(r);
  ASSERT_TRUE(r.clock_p50_mhz && r.clock_p10_mhz);
  EXPECT_NEAR(*r.clock_p50_mhz, 1724.5, 1e-9);
  EXPECT_LT(*r.clock_p10_mhz, *r.clock_p50_mhz);
  EXPECT_EQ(r.peak_temperature_c, 89);
  EXPECT_DOUBLE_EQ(r.throttle_share.at("sw_power_cap"), 1.0);
  EXPECT_DOUBLE_EQ(r.throttle_share.at("hw_thermal"), 0.25);
  EXPECT_DOUBLE_EQ(r.throttle_share.at("hw_slowdown"), 0.0);
}

TEST(BurnSummary, RecordsRoundTripThroughJson) {
  BurnRecord r;
  r.rank = 3;
  r.progress = steady(10, 0.5, 2.0);
  r.samples.push_back({0.1, 1500.0, std::nullopt, 40.0, 0x4});
  r.counters.ecc_corrected = 2;
  r.output_hashes = {"ab", "ab"};
  summarize_burn(r);
  const BurnRecord back = nlohmann::json(r).get<BurnRecord>();
  EXPECT_EQ(back.rank, 3);
  EXPECT_EQ(back.progress.size(), r.progress.size());
  EXPECT_FALSE(back.samples[0].power_w.has_value());
  EXPECT_EQ(back.counters.ecc_corrected, 2u);
  EXPECT_FALSE(back.counters.ecc_uncorrected.has_value());
  EXPECT_DOUBLE_EQ(back.sustained_tflops, r.sustained_tflops);
  EXPECT_EQ(back.output_hashes, r.output_hashes);
}

}  // namespace
}  // namespace gpuscale::results
