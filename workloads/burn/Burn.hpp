#pragma once
// The burn of one rank: one GEMM (Linear forward, M = N = K = dim) back to back for a set time on
// seeded inputs, with completions timed by events recorded after every batch of calls (device time on
// the cuda backend), and the output hashed at snapshots for the silent-data-corruption comparison.
// Every rank runs the same GEMM on the same inputs with the same algorithm: cublasGemmEx's default,
// which cuBLAS picks by heuristics, not by timing, so equal GPUs with one cuBLAS build run the same
// kernel and produce bit-identical outputs. Produces plain data; prints nothing.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/Deadline.hpp"
#include "phases/burn/BurnRecord.hpp"
#include "workloads/layers/Layer.hpp"

namespace gpuscale::workloads {

struct BurnOptions {
  double burn_s = 60;
  Precision precision = Precision::bf16;
  std::int64_t dim = 8192;
  int snapshots = 3;  // output hashes: at each third of the burn, the last at its end
  std::uint64_t seed = 1;
  // After warm-up, before the first timed call: the phase's barrier, so every GPU starts together.
  std::function<void()> before_start;
  // Right before the first timed call is enqueued, with the time the burn's clock counts from.
  std::function<void(std::chrono::steady_clock::time_point)> on_start;
};

struct BurnRun {
  std::vector<results::BurnProgress> progress;
  std::string shape, algorithm;
  double flops_per_call = 0;
  std::uint64_t calls = 0;
  std::vector<std::string> output_hashes;
};

// The tuning a burn's context needs: the one cuBLAS path whose choice does not depend on timing.
TuningOptions burn_tuning();

// Throws what the layers throw (OutOfMemoryError for a dim that does not fit, LibraryError).
// timeout_s bounds each wait (the caller's: launch's phase --timeout).
BurnRun run_burn(ComputeContext& ctx, harness::Stream& stream, const BurnOptions& options, double timeout_s);

// 64-bit FNV-1a over the bytes, as 16 hex digits.
std::string hash_bytes(const void* data, std::size_t bytes);

}  // namespace gpuscale::workloads
