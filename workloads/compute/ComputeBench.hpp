#pragma once
// The compute benchmark of one rank: for a shape and a precision, check the layer against the
// reference, then time each pass with device events. Produces plain records; prints nothing.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/Deadline.hpp"
#include "phases/compute/ComputeRecord.hpp"
#include "workloads/layers/Layer.hpp"
#include "workloads/layers/ShapeSets.hpp"

namespace gpuscale::workloads {

struct BenchOptions {
  int warmup = 5;                // untimed calls per pass before timing
  // Then, before each pass is timed, more calls of that pass until at least this long has run: a GPU at
  // its power limit clocks high for a while under a new load, then settles at a clock that depends on
  // the load, often 10-15% lower; a long warm-up times the settled state a training job sees.
  double warmup_s = 0;
  int iterations = 20;           // timed calls per pass: the same on every rank
  PassSet passes = kEveryPass;   // the passes timed (the reference check runs all three)
  // More timed calls where these would span less than this (timed_calls): under its power limit a GPU
  // saws its clock with a period of about a second, and 50 calls of a 0.2 ms GEMM, 10 ms, time one phase
  // of it, so runs of one kernel disagree while each run's samples agree. A window of a second or more
  // times the clock a long job averages.
  double min_time_s = 0;
  // The ranks that time together agree on each pass's call count (each passes its own, all get the
  // largest), called once per timed pass on every rank where min_time_s > 0. May be empty.
  std::function<int(int)> agree_calls;
  // A pass whose probe call (its run alone: it waits behind a short hold of its own) takes less than
  // this may be launch-bound: its timed calls wait behind a device-side hold (ComputeBench.cpp). Tests
  // set it to make the choice independent of the host's speed.
  double launch_bound_s = 100e-6;
  bool check = true;             // compare with the cpu reference before timing
  double check_max_flops = 4e9;  // larger shapes are checked on verification_shape(shape, this)
  std::uint64_t seed = 1;
  bool corrupt_check_for_test = false;  // test seam: the reference check sees perturbed outputs
  std::string gpu;                      // this rank's device name, for records and the peak table
  int rank = 0;
  // Called once per (shape, precision) on every path, after warm-up and before timing: run_compute's
  // barrier (ComputeRun.hpp), so all ranks time together. May be empty.
  std::function<void()> before_timing;
};

// A record per pass of options.passes, in kAllPasses order. A shape that does not fit in memory, or that
// the library cannot run, yields skipped records with the reason. Library failures other than those propagate.
// timeout_s bounds each wait (the caller's: launch's phase --timeout).
std::vector<results::ComputeRecord> run_compute_item(ComputeContext& ctx, harness::Stream& stream,
                                                     const NamedShape& shape, Precision precision,
                                                     const BenchOptions& options, double timeout_s);

// Timed calls of a pass whose one call took `call_s`: `iterations`, or as many as span `min_time_s`,
// at most kMaxTimedCalls. A launch-bound pass (call_s under the bound) keeps `iterations`: its calls
// wait behind a hold as long as all their launches, which a long window would make seconds of idle.
inline constexpr int kMaxTimedCalls = 20000;
int timed_calls(int iterations, double min_time_s, double call_s, bool launch_bound);

// NHWC for fp16/bf16 (tensor-core friendly), NCHW for fp32/tf32: the `--layout auto` rule.
Layout auto_layout(Precision precision);

}  // namespace gpuscale::workloads
