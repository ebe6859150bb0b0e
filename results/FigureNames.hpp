#pragma once
// The metric and label names that the HTML charts and the built-in verdict rules look for. A phase
// that emits figures under these names gets its charts and rules for free; see docs/REPORT.md.
namespace gpuscale::results::names {

// Phases.
inline constexpr char kEnv[] = "env";
inline constexpr char kChecks[] = "checks";
inline constexpr char kCollectives[] = "collectives";
inline constexpr char kCompute[] = "compute";
inline constexpr char kTrain[] = "train";

// Metrics.
inline constexpr char kBusBw[] = "busbw";                    // GB/s; labels op, bytes, ranks, scope
inline constexpr char kAlgBw[] = "algbw";                    // GB/s
inline constexpr char kPairBusBw[] = "pair_busbw";           // GB/s; labels src, dst
inline constexpr char kTflops[] = "tflops";                  // TFLOP/s; labels rank, layer, precision
inline constexpr char kStepTime[] = "step_time";             // s; labels strategy, gpus
inline constexpr char kScalingEfficiency[] = "scaling_efficiency";  // ratio; labels strategy, gpus
inline constexpr char kComputeTime[] = "compute_time";       // s; labels strategy, gpus
inline constexpr char kExposedCommTime[] = "exposed_comm_time";  // s; labels strategy, gpus
inline constexpr char kWrongElements[] = "wrong_elements";   // count; any > 0 fails the run
inline constexpr char kStragglerSpread[] = "straggler_spread";  // ratio (slowest/median - 1); warns
inline constexpr char kLinkUse[] = "link_use";               // ratio of the link's peak; low warns

// Labels.
inline constexpr char kRank[] = "rank";
inline constexpr char kOp[] = "op";
inline constexpr char kBytes[] = "bytes";
inline constexpr char kRanks[] = "ranks";
inline constexpr char kScope[] = "scope";
inline constexpr char kSrc[] = "src";
inline constexpr char kDst[] = "dst";
inline constexpr char kLayer[] = "layer";
inline constexpr char kPrecision[] = "precision";
inline constexpr char kStrategy[] = "strategy";
inline constexpr char kGpus[] = "gpus";

}  // namespace gpuscale::results::names
