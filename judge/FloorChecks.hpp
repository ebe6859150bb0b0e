#pragma once
// The floors per GPU model (results/base/GpuReference.hpp; the rule: judge/GpuFloors.hpp) as findings: a GPU whose figure is under its
// model's floor is slow whatever the job's other GPUs do, so a lone GPU, or a node of equally slow
// ones, is judged too. Pure (no MPI, no CUDA); judged afresh at every write of the report and by
// `gpuscale report`, so an edited or re-read run is judged by today's table.
//   gpu-slow-sustained  error  the burn's sustained TFLOP/s (bf16, fp16) under the model's floor
//   h2d-slow            error  a pinned H2D or D2H copy alone on its node, largest size, under the
//                              floor of its PCIe link even in its fastest copy (GpuFloors.hpp)
//   hbm-slow            error  the device-to-device copy under the model's floor even in its fastest call
//   gpu-floor-unknown   info   a GPU model without reference figures: its figures have no floor
// (The same ids at warning level compare a GPU with the job's median: BurnChecks, LinksChecks.)
#include <vector>

#include "judge/Rule.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

// The findings, and the marks of the floors (and the slow marks of GPUs under them) on the burn and
// links records of `run`. Records of the cpu backend have no floor and raise nothing; records `run`'s
// marks say were measured beside another process are held to no floor.
Judged floor_checks(const results::RunReport& run);

}  // namespace gpuscale::judge
