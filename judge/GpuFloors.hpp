#pragma once
// The floor rule: a GPU whose figure is not at least its model's floor fails, whatever the job's other
// GPUs do (results/models/GpuReference.hpp holds the floors: the data sheets' figures and the fraction
// of them a GPU is held to). judge/FloorChecks.hpp raises the findings.
#include "results/models/GpuReference.hpp"

namespace gpuscale::judge {

// Whether `value` (TFLOP/s, GB/s: more is better) falls short of `floor`: under it, or not a number. A
// value equal to its floor passes.
bool below_floor(double value, const results::Floor& floor);

}  // namespace gpuscale::judge
