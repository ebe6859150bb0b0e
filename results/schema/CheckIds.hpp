#pragma once
// Every check id a run can raise, in one list: the producers (env, launch, collectives, compute and
// training checks) name their ids through these constants, and --expect's checks_must_pass accepts
// only ids from this list. A new check is one line here plus its producer.
#include <string>
#include <string_view>
#include <vector>

// X(constant, id): the ids of Check records, as the JSON, the console and --expect spell them.
#define GPUSCALE_CHECK_IDS(X)                                \
  X(kDuplicateGpu, "duplicate-gpu")                          \
  X(kMoreRanksThanGpus, "more-ranks-than-gpus")              \
  X(kGpuModelMismatch, "gpu-model-mismatch")                 \
  X(kDriverMismatch, "driver-mismatch")                      \
  X(kCudaMismatch, "cuda-mismatch")                          \
  X(kCudnnMismatch, "cudnn-mismatch")                        \
  X(kNcclMismatch, "nccl-mismatch")                          \
  X(kMpiMismatch, "mpi-mismatch")                            \
  X(kNcclHeaderMismatch, "nccl-header-mismatch")             \
  X(kCudnnHeaderMismatch, "cudnn-header-mismatch")           \
  X(kNumaBinding, "numa-binding")                            \
  X(kNcclDebugVariable, "nccl-debug-variable")               \
  X(kNoP2p, "no-p2p")                                        \
  X(kLowFreeMemory, "low-free-memory")                       \
  X(kGpuThrottling, "gpu-throttling")                        \
  X(kGpuPowerCapped, "gpu-power-capped")                     \
  X(kEccUncorrected, "ecc-uncorrected")                      \
  X(kRowRemapPending, "row-remap-pending")                   \
  X(kRowRemapFailed, "row-remap-failed")                     \
  X(kEccDisabled, "ecc-disabled")                            \
  X(kMigEnabled, "mig-enabled")                              \
  X(kPowerLimitLowered, "power-limit-lowered")               \
  X(kPowerLimitMismatch, "power-limit-mismatch")             \
  X(kClocksLowered, "clocks-lowered")                        \
  X(kPersistenceOff, "persistence-off")                      \
  X(kCpuFallback, "cpu-fallback")                            \
  X(kCudaUnusable, "cuda-unusable")                          \
  X(kSmokeAllreduceFailed, "smoke-allreduce-failed")         \
  X(kWorldSizeMismatch, "world-size-mismatch")               \
  X(kSlurmLayoutMismatch, "slurm-layout-mismatch")           \
  X(kNcclSocketTransport, "nccl-socket-transport")           \
  X(kNcclNodeMismatch, "nccl-node-mismatch")                 \
  X(kCollectiveWrongData, "collective-wrong-data")           \
  X(kCollectiveBelowLink, "collective-below-link")           \
  X(kSlowPair, "slow-pair")                                  \
  X(kSlowNode, "slow-node")                                  \
  X(kIsolationMeasuredNothing, "isolation-measured-nothing") \
  X(kNodeOutlier, "node-outlier")                            \
  X(kCollectiveSkipped, "collective-skipped")                \
  X(kComputeStraggler, "compute-straggler")                  \
  X(kComputeReferenceMismatch, "compute-reference-mismatch") \
  X(kTrainStraggler, "train-straggler")                      \
  X(kGpuInUse, "gpu-in-use")                                 \
  X(kGpuInUseUnchecked, "gpu-in-use-unchecked")              \
  X(kNcclPluginMismatch, "nccl-plugin-mismatch")             \
  X(kNoRdmaAdapter, "no-rdma-adapter")                       \
  X(kNicDown, "nic-down")                                    \
  X(kNicRateMismatch, "nic-rate-mismatch")                   \
  X(kGdrUnavailable, "gdr-unavailable")                      \
  X(kH2dSlow, "h2d-slow")                                    \
  X(kHbmSlow, "hbm-slow")                                    \
  X(kPcieDowntrained, "pcie-downtrained")                    \
  X(kNvlinkDown, "nvlink-down")                              \
  X(kNvlinkErrors, "nvlink-errors")                          \
  X(kGpuXid, "gpu-xid")                                      \
  X(kLinksUnreadable, "links-unreadable")                    \
  X(kGpuSlowSustained, "gpu-slow-sustained")                 \
  X(kGpuFloorUnknown, "gpu-floor-unknown")                   \
  X(kGpuThermalThrottle, "gpu-thermal-throttle")             \
  X(kGpuHwSlowdown, "gpu-hw-slowdown")                       \
  X(kGpuErrorsUnderLoad, "gpu-errors-under-load")            \
  X(kGpuWrongResult, "gpu-wrong-result")                     \
  X(kBurnTelemetryUnavailable, "burn-telemetry-unavailable") \
  X(kBaselineDrop, "baseline-drop")                          \
  X(kBaselineMissing, "baseline-missing")                    \
  X(kBaselineNewFailure, "baseline-new-failure")             \
  X(kBudgetExceeded, "budget-exceeded")

// X(constant, name): the training verifications (TrainVerification::name); a failed one is raised as
// the check id kTrainCheckPrefix + name.
#define GPUSCALE_TRAIN_CHECK_NAMES(X)                                     \
  X(kDdpGradientsBitwiseEqual, "ddp-gradients-bitwise-equal")             \
  X(kDdpMatchesSingle, "ddp-matches-single")                              \
  X(kDdpStepUpdatesEveryBucket, "ddp-step-updates-every-bucket")          \
  X(kDdpAccumMatchesBatch, "ddp-accum-matches-batch")                     \
  X(kDdpCompressedGradients, "ddp-compressed-gradients")                  \
  X(kDdpCompressedStepUpdatesEveryBucket, "ddp-compressed-step-updates-every-bucket") \
  X(kDpMatchesSingle, "dp-matches-single")

namespace gpuscale::results::check_ids {

#define GPUSCALE_DEFINE_CHECK_ID(constant, id) inline constexpr char constant[] = id;
GPUSCALE_CHECK_IDS(GPUSCALE_DEFINE_CHECK_ID)
GPUSCALE_TRAIN_CHECK_NAMES(GPUSCALE_DEFINE_CHECK_ID)
#undef GPUSCALE_DEFINE_CHECK_ID

inline constexpr char kTrainCheckPrefix[] = "train-";

// True for an id a run can raise: one of GPUSCALE_CHECK_IDS or kTrainCheckPrefix + a training check.
bool is_known(std::string_view id);
// Every known id, comma-separated, for a message.
std::string known_text();
// Every known id, in list order (training checks with their prefix).
std::vector<std::string> all();
// The ids of findings against a --baseline (judge/BaselineRules.hpp): raised by judging, never by a
// measurement, so a baseline neither records them nor counts them as a run's own checks.
bool is_baseline(std::string_view id);
// The ids that judge speed: a figure against a peak, a floor, a baseline, the link under it or the job's
// other GPUs and nodes, and the fabric between nodes. Where the job's ranks share GPUs on purpose
// (results/schema/Emulation.hpp), these say nothing about the hardware and are not judged.
bool judges_speed(std::string_view id);

}  // namespace gpuscale::results::check_ids
