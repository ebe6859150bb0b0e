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

// --layout's value that picks the layout by precision (workloads::auto_layout); its default.
inline constexpr const char* kAutoLayout = "auto";

// "all", or the passes as --passes takes them ("fwd,bwd_weight").
std::string passes_text(workloads::PassSet passes);

// `options` may lack the compute options (the `run` command): defaults apply, from the plan's
// initialisers and, where --quick or the backend changes them, from the profile (Profile.hpp).
ComputePlan parse_compute_plan(const cxxopts::ParseResult& options, bool quick, bool cpu_backend = false);

}  // namespace gpuscale::launch
