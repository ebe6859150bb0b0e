#include "phases/burn/BurnSummary.hpp"

#include <algorithm>

#include "results/base/Statistics.hpp"

namespace gpuscale::results {

double burn_settle_s(double elapsed_s) { return std::min(kBurnSettleS, elapsed_s / 4); }

double work_at(std::span<const BurnProgress> progress, double t_s) {
  double t0 = 0, w0 = 0;
  for (const auto& p : progress) {
    if (t_s <= p.t_s) {
      if (p.t_s <= t0) return p.flops;
      return w0 + (p.flops - w0) * (std::max(t_s, t0) - t0) / (p.t_s - t0);
    }
    t0 = p.t_s;
    w0 = p.flops;
  }
  return w0;
}

std::vector<BurnWindow> burn_windows(std::span<const BurnProgress> progress, double window_s) {
  std::vector<BurnWindow> out;
  if (progress.empty() || window_s <= 0) return out;
  const double end_s = progress.back().t_s;
  for (int i = 0; (i + 1) * window_s <= end_s + 1e-12; ++i) {
    const double start = i * window_s;
    const double work = work_at(progress, start + window_s) - work_at(progress, start);
    out.push_back({start, work / window_s / 1e12});
  }
  return out;
}

namespace {

void summarize_samples(BurnRecord& r) {
  std::vector<double> clocks, powers;
  std::map<std::string, int> active;
  int with_reasons = 0;
  for (const auto& s : r.samples) {
    if (s.t_s > r.elapsed_s) continue;
    if (s.temperature_c) r.peak_temperature_c = std::max(r.peak_temperature_c.value_or(*s.temperature_c), *s.temperature_c);
    if (s.t_s >= r.settle_s && s.sm_clock_mhz) clocks.push_back(*s.sm_clock_mhz);
    if (s.t_s >= r.settle_s && s.power_w) powers.push_back(*s.power_w);
    if (!s.clock_event_reasons) continue;
    ++with_reasons;
    for (const auto& reason : kThrottleReasons)
      if (*s.clock_event_reasons & reason.bit) ++active[std::string(reason.name)];
  }
  if (!clocks.empty()) {
    r.clock_p10_mhz = percentile(clocks, 0.10);
    r.clock_p50_mhz = percentile(clocks, 0.50);
  }
  if (!powers.empty()) r.power_p50_w = median(powers);
  r.throttle_share.clear();
  if (with_reasons == 0) return;
  for (const auto& reason : kThrottleReasons)
    r.throttle_share[std::string(reason.name)] = static_cast<double>(active[std::string(reason.name)]) / with_reasons;
}

}  // namespace

void summarize_burn(BurnRecord& r) {
  r.elapsed_s = r.progress.empty() ? 0 : r.progress.back().t_s;
  r.settle_s = burn_settle_s(r.elapsed_s);
  r.windows = burn_windows(r.progress, r.window_s);
  const double settled_work = work_at(r.progress, r.settle_s);
  const double total_work = r.progress.empty() ? 0 : r.progress.back().flops;
  r.first_tflops = r.settle_s > 0 ? settled_work / r.settle_s / 1e12 : 0;
  const double rest_s = r.elapsed_s - r.settle_s;
  r.sustained_tflops = rest_s > 0 ? (total_work - settled_work) / rest_s / 1e12 : 0;
  r.first_to_sustained = r.sustained_tflops > 0 ? r.first_tflops / r.sustained_tflops : 0;
  summarize_samples(r);
}

}  // namespace gpuscale::results
