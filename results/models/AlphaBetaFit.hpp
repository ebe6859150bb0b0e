#pragma once
// The latency-bandwidth model t(n) = alpha + n * beta of one collective on one communicator, fitted
// to a sweep's (size, time) points. Pure functions; seconds and bytes.
//
// The fit minimises relative, not absolute, residuals: a sweep spans 8 B to 1 GiB, and absolute
// least squares would let the largest sizes decide alpha too. It is robust: Huber weights on the
// relative residuals (iteratively reweighted) keep one outlying size from moving the line. alpha and
// beta are never negative (a negative one is clamped to 0 and the other refitted).
//
// Held out: with at least kMinPointsToHoldOut points, every other size (the 2nd, 4th, ... in size
// order) is left out of the fit and the fit's relative error is measured on it; with fewer, every
// point is fitted and no held-out error is reported.
#include <cstdint>
#include <optional>
#include <span>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct FitPoint {
  std::uint64_t bytes = 0;
  double time_s = 0;
};

struct AlphaBetaFit {
  double alpha_s = 0;
  double beta_s_per_byte = 0;
  int points_fitted = 0;
  int points_held_out = 0;
  // |predicted / measured - 1| over the held-out sizes; absent when none were held out.
  std::optional<double> held_out_median_error, held_out_max_error;
};

// The held-out errors are null when none were held out.
constexpr auto json_fields(const AlphaBetaFit*) {
  using T = AlphaBetaFit;
  return fields(field("alpha_s", &T::alpha_s), field("beta_s_per_byte", &T::beta_s_per_byte),
                field("points_fitted", &T::points_fitted), field("points_held_out", &T::points_held_out),
                field("held_out_median_error", &T::held_out_median_error),
                field("held_out_max_error", &T::held_out_max_error));
}

inline constexpr int kMinPointsToHoldOut = 4;

// Weighted robust fit over exactly these points (no hold-out). nullopt for fewer than two distinct
// sizes or a non-positive time.
std::optional<AlphaBetaFit> fit_line(std::span<const FitPoint> points);

// The sweep's fit with the hold-out rule above. Points need not be sorted; zero-byte points are
// ignored. nullopt when too few points remain.
std::optional<AlphaBetaFit> fit_alpha_beta(std::span<const FitPoint> points);

void to_json(nlohmann::json& j, const AlphaBetaFit& f);
void from_json(const nlohmann::json& j, AlphaBetaFit& f);

}  // namespace gpuscale::results
