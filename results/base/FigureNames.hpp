#pragma once
// The metric and label names that the HTML charts and the built-in verdict rules look for. A phase
// that emits figures under these names gets its charts and rules for free; see docs/REPORT.md.
#include <string_view>

#include "results/base/PhaseNames.hpp"

namespace gpuscale::results::names {

// What a figure's phase can be besides a registered phase's name (phase::NAME, PhaseNames.hpp).
inline constexpr char kChecks[] = "checks";
inline constexpr char kProjection[] = "projection";

// Metrics: X(constant, name, what) lists every metric a phase emits; --expect accepts these (and, in
// phase "checks", check ids) as a threshold's metric.
#define GPUSCALE_METRICS(X)                                                                     \
  X(kBusBw, "busbw", "GB/s; labels op, bytes, ranks, scope")                                    \
  X(kAlgBw, "algbw", "GB/s")                                                                    \
  X(kTime, "time", "s; a collective's or a compute item's median")                             \
  X(kPeakBusBw, "peak_busbw", "GB/s; labels op, scope, dtype")                                  \
  X(kLatency, "latency", "s; labels op, scope, dtype")                                          \
  X(kLatencyGraph, "latency_graph", "s; as latency, launched from a CUDA graph")                \
  X(kPairBusBw, "pair_busbw", "GB/s; labels src, dst")                                          \
  X(kPairLatency, "pair_latency", "s; labels src, dst")                                         \
  X(kTflops, "tflops", "TFLOP/s; labels rank, layer, precision")                                \
  X(kRelativeError, "relative_error", "ratio; against the reference")                           \
  X(kSmokeAllreduceTime, "smoke_allreduce_time", "s; label rank")                               \
  X(kSmokeInitTime, "smoke_init_time", "s; label rank")                                         \
  X(kGpuMemoryTotal, "gpu_memory_total", "B; label rank")                                       \
  X(kGpuMemoryFree, "gpu_memory_free", "B; label rank")                                         \
  X(kSmClock, "sm_clock", "MHz; label rank")                                                    \
  X(kSmClockMax, "sm_clock_max", "MHz; label rank")                                             \
  X(kMemoryClock, "memory_clock", "MHz; label rank")                                            \
  X(kTemperature, "temperature", "C; label rank")                                               \
  X(kPowerDraw, "power_draw", "W; label rank")                                                  \
  X(kPowerLimit, "power_limit", "W; label rank")                                                \
  X(kStepTime, "step_time", "s; labels strategy, gpus")                                         \
  X(kScalingEfficiency, "scaling_efficiency", "ratio; labels strategy, gpus")                   \
  X(kComputeTime, "compute_time", "s; labels strategy, gpus")                                   \
  X(kExposedCommTime, "exposed_comm_time", "s; labels strategy, gpus")                          \
  X(kCommTime, "comm_time", "s; labels strategy, gpus (the allreduces alone)")                  \
  X(kSamplesPerS, "samples_per_s", "samples/s; labels strategy, gpus")                          \
  X(kOverlap, "overlap", "%; labels strategy, gpus")                                            \
  X(kPeakMemory, "peak_memory", "B; labels strategy, gpus (largest rank)")                      \
  X(kRankStepTime, "rank_step_time", "s; labels strategy, gpus, rank")                          \
  X(kDpPhaseTime, "dp_phase_time", "s; labels strategy, gpus, dp_phase")                        \
  X(kWrongElements, "wrong_elements", "count; any > 0 fails the run")                           \
  X(kStragglerSpread, "straggler_spread", "ratio (slowest/median - 1); warns")                  \
  X(kSustainedTflops, "sustained_tflops", "TFLOP/s; labels rank, precision (burn)")               \
  X(kLinkUse, "link_use", "ratio of the link's peak; low warns")                                \
  X(kHostCopyBw, "host_copy_bw", "GB/s; labels rank, direction, memory, mode, bytes (links)")   \
  X(kHbmBw, "hbm_bw", "GB/s read + written; labels rank, kernel (links)")                       \
  X(kHbmPeakFraction, "hbm_peak_fraction", "ratio of the model's HBM peak; labels rank, kernel") \
  X(kNvlinkErrors, "nvlink_errors", "count grown during links; label rank")                     \
  X(kXidEvents, "xid_events", "count during links; label rank") \
  X(kNodeLocalBusBw, "node_local_busbw", "GB/s; label node (isolation: allreduce over the node's ranks)") \
  X(kInterNodeBusBw, "inter_node_busbw", "GB/s; label node (isolation: median of its rounds' pair allreduce)") \
  X(kFitAlpha, "fit_alpha", "s; labels op, tier, ranks (latency of the fitted t = alpha + n beta)") \
  X(kFitBeta, "fit_beta", "s/B; labels op, tier, ranks")                                        \
  X(kFitHeldOutError, "fit_held_out_error", "ratio; the largest over the held-out sizes")     \
  X(kNcclModelTime, "nccl_model_time", "s; labels op, tier, ranks, bytes (NCCL's own cost model)") \
  X(kProjectedTime, "projected_time", "s; labels op, algorithm, ranks, bytes")                \
  X(kProjectedBusBw, "projected_busbw", "GB/s; labels op, algorithm, ranks, bytes")           \
  X(kProjectedStepTime, "projected_step_time", "s; labels model, config, ranks (DDP)")        \
  X(kProjectedSamplesPerS, "projected_samples_per_s", "samples/s; labels model, config, ranks")

#define GPUSCALE_DEFINE_METRIC(constant, name, what) inline constexpr char constant[] = name;
GPUSCALE_METRICS(GPUSCALE_DEFINE_METRIC)
#undef GPUSCALE_DEFINE_METRIC

// True for a name in GPUSCALE_METRICS.
bool is_known_metric(std::string_view name);
// True for the metrics a run can measure below zero: a fit's coefficients and what is projected from
// them, exposed communication and overlap (noise on a step that hides its communication), temperature.
// Every other figure, a check's count included, is >= 0: a ceiling below zero cannot be met.
bool can_be_negative(std::string_view metric);

// Labels.
inline constexpr char kRank[] = "rank";
inline constexpr char kNode[] = "node";
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
inline constexpr char kDirection[] = "direction";  // links: "h2d" | "d2h"
inline constexpr char kMemory[] = "memory";        // links: "pinned" | "pageable"
inline constexpr char kMode[] = "mode";            // links: "solo" | "concurrent"
inline constexpr char kKernel[] = "kernel";        // links: "copy" | "triad"
inline constexpr char kTier[] = "tier";            // projection: "intra-node", "inter-node", "world"
inline constexpr char kAlgorithm[] = "algorithm";  // projection: "ring", "tree"
inline constexpr char kConfig[] = "config";        // projection: the measured DDP configuration

}  // namespace gpuscale::results::names
