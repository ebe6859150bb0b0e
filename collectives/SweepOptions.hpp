#pragma once
// What to sweep, with nccl-tests' flag letters where the meanings match. Plain values: parsed and
// validated here (UsageError on bad input), read from the command line by launch.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/DataType.hpp"

namespace gpuscale::collectives {

struct OpSpec;

// nccl-tests' defaults. launch sets the sizes, step, iteration counts, scaling and pair sizes of
// every run from its profile table (launch/base/Profile.cpp) and prints the rest in --help from here.
// The all-pairs send/recv matrix runs ranks - 1 rounds: by default only up to kPairMatrixAutoRanks.
enum class PairMatrixMode { automatic, all, none };
inline constexpr int kPairMatrixAutoRanks = 32;

// Localisation of a slow node (collectives/Isolation): by default when the job spans at least
// kIsolationAutoNodes nodes (with two, every round pairs the same two and no node has others to be
// judged against); `only`: --isolate, nothing else, a usage error on fewer nodes (launch/PlanFit).
enum class IsolationMode { automatic, only, none };
inline constexpr int kIsolationAutoNodes = 3;

struct SweepOptions {
  std::uint64_t min_bytes = 8, max_bytes = 1ull << 30;  // -b, -e
  std::uint64_t step_factor = 2;                         // -f (geometric) ...
  std::uint64_t step_bytes = 0;                          // ... or -i (arithmetic) when non-zero
  int iterations = 20;                                   // -n
  int warmup = 5;                                        // -w
  int check_passes = 3;                                  // -c: 0 disables the check
  int graph_launches = 0;                                // -G: 0 times stream launches
  int aggregated = 1;                                    // -m: ops per iteration, in one group
  harness::DataType type = harness::DataType::float32;  // -d
  harness::RedOp redop = harness::RedOp::sum;            // -o
  int root = 0;                                          // -r
  std::vector<const OpSpec*> ops;                        // --ops
  // Scaling over sub-communicators: sizes (empty: no scaling table) and ops.
  std::vector<std::uint64_t> scaling_sizes;
  std::vector<const OpSpec*> scaling_ops;
  // Pairwise matrix: message sizes, 0 large_bytes disables it.
  std::uint64_t pair_large_bytes = 64ull << 20, pair_small_bytes = 8;
  double pair_threshold = 0.8;  // a pair under this fraction of its class's median is flagged
  PairMatrixMode pair_mode = PairMatrixMode::automatic;
  IsolationMode isolation = IsolationMode::automatic;
  std::uint64_t isolation_bytes = 64ull << 20;
  // Rounds of node pairs: 6 separate a slow node (fails all) from its partners (fail once or twice)
  // at any node count, since each round draws new partners.
  int isolation_rounds = 6;
  // Under half the median of the round's other pairs is far outside healthy spread even on an oversubscribed host.
  double isolation_threshold = 0.5;
  std::uint64_t isolation_seed = 1;  // of the matchings (--seed)
  // Peak busbw under this fraction of the link warns. Half: NCCL 2.28 on 2 H200s over NV18 (NVLS off)
  // peaks at 57-58% of the link in allgather and reducescatter and ~65% in allreduce, healthy, while a
  // path that misses the link (P2P off, through host memory) reads a small fraction of it.
  double link_threshold = 0.5;
  double net_gbps = 0;          // the inter-node network per rank, per direction; 0: unknown
};

// "auto", "all" or "none"; UsageError otherwise.
PairMatrixMode parse_pair_mode(const std::string& text);

// nccl-tests' sizes: min, then *factor (or +step) while <= max.
std::vector<std::uint64_t> size_list(const SweepOptions& options);
// Throws UsageError for inconsistent values (max < min, factor < 2, iterations < 1, ...).
void validate(const SweepOptions& options);

}  // namespace gpuscale::collectives
