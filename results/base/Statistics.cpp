#include "results/base/Statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double percentile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return kNaN;
  q = std::clamp(q, 0.0, 1.0);
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

std::vector<double> sorted_copy(std::span<const double> samples) {
  std::vector<double> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

double percentile(std::span<const double> samples, double q) {
  return percentile_of_sorted(sorted_copy(samples), q);
}

double median(std::span<const double> samples) { return percentile(samples, 0.5); }

std::optional<double> median_of(std::span<const double> samples) {
  if (samples.empty()) return std::nullopt;
  return median(samples);
}

double mean(std::span<const double> samples) {
  if (samples.empty()) return kNaN;
  return std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
}

double stddev(std::span<const double> samples) {
  if (samples.empty()) return kNaN;
  if (samples.size() == 1) return 0.0;
  const double m = mean(samples);
  double sum_sq = 0;
  for (double x : samples) sum_sq += (x - m) * (x - m);
  return std::sqrt(sum_sq / static_cast<double>(samples.size() - 1));
}

double robust_sigma(std::span<const double> samples) {
  const double centre = median(samples);
  std::vector<double> deviations;
  for (double x : samples) deviations.push_back(std::fabs(x - centre));
  return kMadToSigma * median(deviations);
}

Summary summarize(std::span<const double> samples) {
  Summary s;
  s.count = samples.size();
  const auto sorted = sorted_copy(samples);
  s.min = sorted.empty() ? kNaN : sorted.front();
  s.max = sorted.empty() ? kNaN : sorted.back();
  s.mean = mean(samples);
  s.stddev = stddev(samples);
  s.median = percentile_of_sorted(sorted, 0.5);
  s.p10 = percentile_of_sorted(sorted, 0.1);
  s.p90 = percentile_of_sorted(sorted, 0.9);
  return s;
}

GPUSCALE_JSON_FROM_FIELDS(Summary)

}  // namespace gpuscale::results
