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

#include "results/schema/FitRecord.hpp"

namespace gpuscale::results {

struct FitPoint {
  std::uint64_t bytes = 0;
  double time_s = 0;
};

inline constexpr int kMinPointsToHoldOut = 4;

// Weighted robust fit over exactly these points (no hold-out). nullopt for fewer than two distinct
// sizes or a non-positive time.
std::optional<AlphaBetaFit> fit_line(std::span<const FitPoint> points);

// The sweep's fit with the hold-out rule above. Points need not be sorted; zero-byte points are
// ignored. nullopt when too few points remain.
std::optional<AlphaBetaFit> fit_alpha_beta(std::span<const FitPoint> points);

}  // namespace gpuscale::results
