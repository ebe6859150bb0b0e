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
inline constexpr char kBurn[] = "burn";

// Metrics.
inline constexpr char kBusBw[] = "busbw";                    // GB/s; labels op, bytes, ranks, scope
inline constexpr char kAlgBw[] = "algbw";                    // GB/s
inline constexpr char kPairBusBw[] = "pair_busbw";           // GB/s; labels src, dst
inline constexpr char kTflops[] = "tflops";                  // TFLOP/s; labels rank, layer, precision
inline constexpr char kStepTime[] = "step_time";             // s; labels strategy, gpus
inline constexpr char kScalingEfficiency[] = "scaling_efficiency";  // ratio; labels strategy, gpus
inline constexpr char kComputeTime[] = "compute_time";       // s; labels strategy, gpus
inline constexpr char kExposedCommTime[] = "exposed_comm_time";  // s; labels strategy, gpus
inline constexpr char kCommTime[] = "comm_time";             // s; labels strategy, gpus (the allreduces alone)
inline constexpr char kSamplesPerS[] = "samples_per_s";      // samples/s; labels strategy, gpus
inline constexpr char kOverlap[] = "overlap";                // %; labels strategy, gpus
inline constexpr char kPeakMemory[] = "peak_memory";         // B; labels strategy, gpus (largest rank)
inline constexpr char kRankStepTime[] = "rank_step_time";    // s; labels strategy, gpus, rank
inline constexpr char kDpPhaseTime[] = "dp_phase_time";      // s; labels strategy, gpus, dp_phase
inline constexpr char kWrongElements[] = "wrong_elements";   // count; any > 0 fails the run
inline constexpr char kStragglerSpread[] = "straggler_spread";  // ratio (slowest/median - 1); warns
inline constexpr char kSustainedTflops[] = "sustained_tflops";  // TFLOP/s; labels rank, precision (burn)
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
inline constexpr char kModel[] = "model";
inline constexpr char kScaling[] = "scaling";
inline constexpr char kOptions[] = "options";    // train: the configuration's non-default options, as the console
inline constexpr char kDpPhase[] = "dp_phase";

}  // namespace gpuscale::results::names
