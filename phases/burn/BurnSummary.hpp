#pragma once
// What a burn's raw completions and telemetry add up to: throughput in fixed windows of wall time,
// the sustained figure after the first stretch, clock percentiles, peak temperature and how long each
// clock-event (throttle) reason was active. Pure functions, unit-tested (tests/unit/results).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "phases/burn/BurnRecord.hpp"

namespace gpuscale::results {

// Left out of the sustained figure: a GPU back from idle runs at its top clock for about a second
// before power and temperature settle it. Short burns leave out a quarter of their length instead.
inline constexpr double kBurnSettleS = 1.0;
double burn_settle_s(double elapsed_s);

// Work done by `t_s`, interpolated linearly between completions (the burn starts at (0, 0)); the
// last completion's work after it.
double work_at(std::span<const BurnProgress> progress, double t_s);

// One window per whole `window_s` up to the last completion: the work finished inside it over its
// length, in TFLOP/s.
std::vector<BurnWindow> burn_windows(std::span<const BurnProgress> progress, double window_s);

// The clock-event reasons a burn reports, with NVML's bits (nvmlClocksEventReason*).
struct ThrottleReason {
  std::string_view name;
  std::uint64_t bit;
};
inline constexpr ThrottleReason kThrottleReasons[] = {
    {"sw_power_cap", 0x4}, {"hw_slowdown", 0x8}, {"sw_thermal", 0x20}, {"hw_thermal", 0x40}, {"hw_power_brake", 0x80},
};

// Fills windows, elapsed, sustained and first-stretch TFLOP/s and their ratio, clock p10/p50, power
// p50, peak temperature and throttle shares from r.progress, r.samples and r.flops_per_call.
void summarize_burn(BurnRecord& r);

}  // namespace gpuscale::results
