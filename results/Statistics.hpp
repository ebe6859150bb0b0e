#pragma once
// Summary statistics over raw samples (seconds, bytes, anything): small named functions, like
// google/benchmark's, so every phase reports the same figures the same way.
#include <cstddef>
#include <span>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpuscale::results {

// Linear interpolation between closest ranks (numpy's default). q in [0, 1]. NaN for no samples.
double percentile(std::span<const double> samples, double q);
double median(std::span<const double> samples);
double mean(std::span<const double> samples);
// Sample standard deviation (n - 1); 0 for a single sample, NaN for none.
double stddev(std::span<const double> samples);
// The median absolute deviation from the median x 1.4826: the standard deviation of normally
// distributed samples, unmoved by a few outliers among them. NaN for no samples.
double robust_sigma(std::span<const double> samples);

struct Summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0, median = 0, p10 = 0, p90 = 0;
};

// All figures NaN when samples is empty (they serialise as null).
Summary summarize(std::span<const double> samples);

void to_json(nlohmann::json& j, const Summary& s);
void from_json(const nlohmann::json& j, Summary& s);

}  // namespace gpuscale::results
