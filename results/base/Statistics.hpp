#pragma once
// Summary statistics over raw samples (seconds, bytes, anything): small named functions, like
// google/benchmark's, so every phase reports the same figures the same way.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

// Linear interpolation between closest ranks (numpy's default). q in [0, 1]. NaN for no samples.
double percentile(std::span<const double> samples, double q);
double median(std::span<const double> samples);
// The median, or nullopt for no samples (a figure that was not measured).
std::optional<double> median_of(std::span<const double> samples);
double mean(std::span<const double> samples);
// Sample standard deviation (n - 1); 0 for a single sample, NaN for none.
double stddev(std::span<const double> samples);
// MAD of a normal distribution x kMadToSigma = its standard deviation.
inline constexpr double kMadToSigma = 1.4826;
// The median absolute deviation from the median x kMadToSigma: the standard deviation of normally
// distributed samples, unmoved by a few outliers among them. NaN for no samples.
double robust_sigma(std::span<const double> samples);

struct Summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0, median = 0, p10 = 0, p90 = 0;
};

// All figures NaN when samples is empty (they serialise as null).
Summary summarize(std::span<const double> samples);

// The figures of no samples (NaN) are written as null and read back as NaN.
constexpr auto json_fields(const Summary*) {
  using T = Summary;
  return fields(field("count", &T::count), field("min", &T::min).as<NanAsNull>(),
                field("max", &T::max).as<NanAsNull>(), field("mean", &T::mean).as<NanAsNull>(),
                field("stddev", &T::stddev).as<NanAsNull>(), field("median", &T::median).as<NanAsNull>(),
                field("p10", &T::p10).as<NanAsNull>(), field("p90", &T::p90).as<NanAsNull>());
}

void to_json(nlohmann::json& j, const Summary& s);
void from_json(const nlohmann::json& j, Summary& s);

}  // namespace gpuscale::results
