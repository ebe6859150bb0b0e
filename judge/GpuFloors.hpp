#pragma once
// The floor rule: a GPU whose figure is not at least its model's floor fails, whatever the job's other
// GPUs do (results/base/GpuReference.hpp holds the floors: the data sheets' figures and the fraction
// of them a GPU is held to). judge/FloorChecks.hpp raises the findings.
#include <cstdint>
#include <vector>

#include "results/base/GpuReference.hpp"

namespace gpuscale::judge {

// Whether `value` (TFLOP/s, GB/s: more is better) falls short of `floor`: under it, or not a number. A
// value equal to its floor passes.
bool below_floor(double value, const results::Floor& floor);

// The rate of the fastest of a figure's timed operations, `bytes` each (1e9 B/s): what a copy's floor
// is held to. A link trained down, a bad binding or slow memory is slow in every copy; a host busy with
// someone else's traffic for part of the measurement slows some, which the median shows and the floor
// must not fail a healthy GPU for. `median_gbps` where no sample was kept.
double best_gbps(std::uint64_t bytes, const std::vector<double>& samples_s, double median_gbps);

}  // namespace gpuscale::judge
