#pragma once
// What the compute phase measures, parsed from the command line. Pure (no MPI, no device), so the
// parsing is unit-tested; bad input throws harness::UsageError with one line.
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "results/RunReport.hpp"
#include "workloads/ComputeBench.hpp"
#include "workloads/Layer.hpp"

namespace gpuscale::launch {

struct ComputeItem {
  workloads::NamedShape shape;
  workloads::Precision precision;
};

struct ComputePlan {
  std::vector<ComputeItem> items;  // shape-major: every precision of a shape, then the next shape
  workloads::TuningOptions tuning;
  workloads::BenchOptions bench;  // rank, gpu, seed, timeout and barrier are filled in by the phase
  double straggler_threshold = results::kDefaultStragglerThreshold;
};

// `options` may lack the compute options (the `run` command): defaults apply. quick: fewer
// iterations. cpu_backend: without shapes on the command line, the small "cpu" set replaces
// "default" (4096^3 in double precision would take minutes per call).
ComputePlan parse_compute_plan(const cxxopts::ParseResult& options, bool quick, bool cpu_backend = false);

}  // namespace gpuscale::launch
