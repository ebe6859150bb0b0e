#include "results/models/AlphaBetaFit.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "results/base/Statistics.hpp"

namespace gpuscale::results {
namespace {

constexpr int kReweightRounds = 30;
constexpr double kHuberK = 1.345;        // 95% efficiency on normal residuals

struct Line {
  double alpha = 0, beta = 0;  // beta per unit of the scaled size x = n / scale
};

// Weighted least squares of t = alpha + beta x with both coefficients >= 0.
Line solve(const std::vector<double>& x, const std::vector<double>& t, const std::vector<double>& w) {
  double s0 = 0, s1 = 0, s2 = 0, t0 = 0, t1 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    s0 += w[i];
    s1 += w[i] * x[i];
    s2 += w[i] * x[i] * x[i];
    t0 += w[i] * t[i];
    t1 += w[i] * x[i] * t[i];
  }
  const double det = s0 * s2 - s1 * s1;
  Line l;
  if (det > 0) {
    l.alpha = (t0 * s2 - s1 * t1) / det;
    l.beta = (s0 * t1 - s1 * t0) / det;
  }
  if (det <= 0 || l.alpha < 0) l = {0, s2 > 0 ? t1 / s2 : 0};
  if (l.beta < 0) l = {s0 > 0 ? t0 / s0 : 0, 0};
  return l;
}

}  // namespace

std::optional<AlphaBetaFit> fit_line(std::span<const FitPoint> points) {
  if (points.size() < 2) return std::nullopt;
  double scale = 0;
  for (const auto& p : points) {
    if (!(p.time_s > 0) || !std::isfinite(p.time_s)) return std::nullopt;
    scale = std::max(scale, static_cast<double>(p.bytes));
  }
  const bool distinct = std::any_of(points.begin(), points.end(), [&](const FitPoint& p) { return p.bytes != points[0].bytes; });
  if (!distinct || scale <= 0) return std::nullopt;
  std::vector<double> x, t, w, huber(points.size(), 1.0), residual(points.size());
  for (const auto& p : points) {
    x.push_back(static_cast<double>(p.bytes) / scale);
    t.push_back(p.time_s);
  }
  Line line;
  for (int round = 0; round < kReweightRounds; ++round) {
    w.clear();
    for (std::size_t i = 0; i < t.size(); ++i) w.push_back(huber[i] / (t[i] * t[i]));
    line = solve(x, t, w);
    for (std::size_t i = 0; i < t.size(); ++i) residual[i] = std::abs(t[i] - line.alpha - line.beta * x[i]) / t[i];
    const double sigma = kMadToSigma * median(residual);
    if (!(sigma > 1e-12)) break;
    bool changed = false;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const double h = residual[i] <= kHuberK * sigma ? 1.0 : kHuberK * sigma / residual[i];
      changed = changed || std::abs(h - huber[i]) > 1e-9;
      huber[i] = h;
    }
    if (!changed) break;
  }
  AlphaBetaFit fit;
  fit.alpha_s = line.alpha;
  fit.beta_s_per_byte = line.beta / scale;
  fit.points_fitted = static_cast<int>(points.size());
  return fit;
}

std::optional<AlphaBetaFit> fit_alpha_beta(std::span<const FitPoint> points) {
  std::vector<FitPoint> sorted;
  for (const auto& p : points)
    if (p.bytes > 0) sorted.push_back(p);
  std::sort(sorted.begin(), sorted.end(), [](const FitPoint& a, const FitPoint& b) { return a.bytes < b.bytes; });
  if (static_cast<int>(sorted.size()) < kMinPointsToHoldOut) return fit_line(sorted);
  std::vector<FitPoint> fitted, held_out;
  for (std::size_t i = 0; i < sorted.size(); ++i) (i % 2 == 0 ? fitted : held_out).push_back(sorted[i]);
  auto fit = fit_line(fitted);
  if (!fit) return fit;
  std::vector<double> errors;
  for (const auto& p : held_out) {
    const double predicted = fit->alpha_s + static_cast<double>(p.bytes) * fit->beta_s_per_byte;
    errors.push_back(std::abs(predicted / p.time_s - 1.0));
  }
  fit->points_held_out = static_cast<int>(held_out.size());
  fit->held_out_median_error = median(errors);
  fit->held_out_max_error = *std::max_element(errors.begin(), errors.end());
  return fit;
}

}  // namespace gpuscale::results
