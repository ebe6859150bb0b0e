#pragma once
// The training phase's figures: one record per strategy, model, precision, scaling mode and GPU
// count, with every rank's raw step times; the correctness verifications run before timing; trace spans.
// Plain data, made on every rank by workloads/ and launch/, gathered to rank 0, printed by reporters.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "phases/train/TraceSpan.hpp"
#include "results/base/Check.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/RecordFields.hpp"
#include "results/base/RecordMarks.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {

// The phase's planned kinds (PlannedItem::kind, results/base/PlanRecord.hpp).
namespace planned {
// One configuration (labels strategy, model, precision, scaling, gpus).
inline constexpr char kTrain[] = "train";
// DP-style on rank 0's devices, 1..gpus of them (labels model, precision).
inline constexpr char kDp[] = "dp";
inline constexpr char kTrainChecks[] = "train_checks";  // the gradient checks of one model and precision
}  // namespace planned

struct TrainRankFigures {
  int rank = 0;                       // world rank (for dp: the device index on rank 0)
  std::vector<double> step_samples_s; // one per timed step
  Summary step_s;
  std::optional<double> compute_s;    // median of a step without communication
  std::optional<double> comm_s;       // median of the bucket allreduces alone
  std::uint64_t peak_memory_bytes = 0;
};

// DP-style: median seconds of each phase on device 0's timeline.
struct DpPhases {
  double broadcast_s = 0, scatter_s = 0, forward_s = 0, gather_s = 0, grad_scatter_s = 0, backward_s = 0,
         reduce_s = 0, sgd_s = 0;
};

// Every phase of DpPhases, named, in step order: the one list the JSON (name + "_s"), the console table
// and the figures (dp_phase) read.
inline constexpr std::pair<const char*, double DpPhases::*> kDpPhaseFields[] = {
    {"broadcast", &DpPhases::broadcast_s}, {"scatter", &DpPhases::scatter_s},
    {"forward", &DpPhases::forward_s},     {"gather", &DpPhases::gather_s},
    {"grad_scatter", &DpPhases::grad_scatter_s}, {"backward", &DpPhases::backward_s},
    {"reduce", &DpPhases::reduce_s},       {"sgd", &DpPhases::sgd_s}};

struct TrainRecord {
  std::string strategy;    // "single" | "dp" | "ddp"
  std::string model;       // "mlp", "cnn", "resnet50", "transformer"
  std::string precision;   // "fp32" | "tf32" | "fp16" | "bf16"
  std::string scaling;     // "weak" (fixed per-GPU batch) | "strong" (fixed global batch)
  int gpus = 1;
  std::int64_t batch_per_gpu = 0;
  std::int64_t global_batch = 0;
  std::string grad_dtype = "fp32";  // of the allreduce
  int accum = 1;
  bool overlap = true;
  bool optimizer_overlap = false;   // ddp: SGD per bucket as its allreduce ends
  double bucket_mb = 25;
  std::string comm_priority = "normal";
  std::string comm_buffers = "plain";  // ddp: "window" when the buckets were the communicator's window memory
  int comm_ctas = 0;                // ddp: thread blocks per collective asked of NCCL; 0: its choice
  int comm_sm_margin = 0;           // ddp: SMs the backward GEMMs left to the allreduces; 0: none
  // ddp with --comm-ctas auto: (CTAs, median step s of the slowest rank) per candidate, the kept first.
  std::vector<std::pair<int, double>> comm_ctas_trials;
  bool h2d = false;
  int buckets = 0;
  std::uint64_t parameter_bytes = 0;
  double step_flops = 0;            // per GPU
  std::vector<double> step_samples_s;  // per timed step: the slowest rank's time
  Summary step_s;
  double samples_per_s = 0;         // global_batch * accum / median step
  std::optional<double> efficiency;      // samples/s over gpus x the 1-GPU baseline's
  std::optional<double> compute_s;       // median over ranks of the compute-only medians
  std::optional<double> comm_s;          // allreduce alone
  std::optional<double> exposed_comm_s;  // step - compute-only
  std::optional<double> overlap_pct;     // 100 (1 - exposed / comm), clamped to 0..100
  std::uint64_t peak_memory_bytes = 0;   // the largest over ranks
  std::vector<TrainRankFigures> ranks;
  std::optional<DpPhases> dp;
  std::string skipped_reason;  // non-empty: not run, and why
};

// A correctness verification of the training algorithms, run before timing.
struct TrainVerification {
  std::string name;        // "ddp-gradients-bitwise-equal", "ddp-matches-single", ...
  std::string config;      // "mlp fp32, 2 ranks"
  bool passed = false;
  double error = 0;        // relative L2 error (or count of differing ranks for bitwise checks)
  double tolerance = 0;
  std::string detail;
};

struct TrainResults {
  std::vector<TrainRecord> records;
  std::vector<TrainVerification> verifications;  // trace spans go to RunReport::trace_spans
};

// The judge's marks on train's records (results/base/RecordMarks.hpp), and where the JSON writes each.
enum class TrainMark {
  straggler,      // records[i].ranks[rank_index]: step median above the median rank's by the threshold (and 50 us)
  beside_tenant,  // records[i]: one of its GPUs (or of its 1-GPU baseline's, which its efficiency divides by)
                  // had another process computing on it while it ran (judge/TenancyChecks.hpp)
};
constexpr std::string_view phase_of(TrainMark) { return phase::train; }
inline constexpr MarkKey kTrainMarkKeys[] = {
    flag_mark(TrainMark::straggler, "straggler", Unmarked::written, "records", "ranks"),
    flag_mark(TrainMark::beside_tenant, "beside_tenant", Unmarked::omitted, "records"),
};
constexpr std::span<const MarkKey> mark_keys(const TrainResults*) { return kTrainMarkKeys; }

// How the console names a configuration, "ddp mlp bf16 x2 weak grad:bf16 opt-overlap": the options
// part (after the scaling mode) lists what differs from the defaults and is empty when nothing does.
std::string train_options_text(const TrainRecord& r);
std::string train_config(const TrainRecord& r);

// A record that ran and measured a rate (not skipped).
bool measured(const TrainRecord& r);
// The 1-GPU record whose rate `r`'s efficiency divides by (single with the same per-GPU batch for weak
// scaling, with the same global batch for strong; else the strategy's own 1-GPU record), or nullptr.
const TrainRecord* scaling_baseline(const std::vector<TrainRecord>& all, const TrainRecord& r);

// Fills efficiency from the 1-GPU baselines (single with the same per-GPU batch for weak scaling,
// with the same global batch for strong; else the strategy's own 1-GPU record). The checks are
// phases/train/TrainChecks.hpp's.
void finish_train_results(TrainResults& results);

constexpr auto json_fields(const TrainRankFigures*) {
  using T = TrainRankFigures;
  return fields(field("rank", &T::rank), field("step_samples_s", &T::step_samples_s), field("step_s", &T::step_s),
                field("peak_memory_bytes", &T::peak_memory_bytes), field("compute_s", &T::compute_s),
                field("comm_s", &T::comm_s));
}

constexpr auto json_fields(const TrainRecord*) {
  using T = TrainRecord;
  return fields(
      field("strategy", &T::strategy), field("model", &T::model), field("precision", &T::precision),
      field("scaling", &T::scaling), field("gpus", &T::gpus), field("batch_per_gpu", &T::batch_per_gpu),
      field("global_batch", &T::global_batch), field("grad_dtype", &T::grad_dtype), field("accum", &T::accum),
      field("overlap", &T::overlap), field("optimizer_overlap", &T::optimizer_overlap).optional(),
      field("bucket_mb", &T::bucket_mb), field("comm_priority", &T::comm_priority),
      field("comm_buffers", &T::comm_buffers).optional(), field("comm_ctas", &T::comm_ctas).optional(),
      field("comm_ctas_trials", &T::comm_ctas_trials).optional(),
      field("comm_sm_margin", &T::comm_sm_margin).optional(), field("h2d", &T::h2d), field("buckets", &T::buckets),
      field("parameter_bytes", &T::parameter_bytes), field("step_flops", &T::step_flops),
      field("step_samples_s", &T::step_samples_s), field("step_s", &T::step_s),
      field("samples_per_s", &T::samples_per_s), field("peak_memory_bytes", &T::peak_memory_bytes),
      field("ranks", &T::ranks), field("skipped_reason", &T::skipped_reason), field("efficiency", &T::efficiency),
      field("compute_s", &T::compute_s), field("comm_s", &T::comm_s), field("exposed_comm_s", &T::exposed_comm_s),
      field("overlap_pct", &T::overlap_pct), field("dp", &T::dp));
}

constexpr auto json_fields(const TrainVerification*) {
  using T = TrainVerification;
  return fields(field("name", &T::name), field("config", &T::config), field("passed", &T::passed),
                field("error", &T::error), field("tolerance", &T::tolerance), field("detail", &T::detail));
}

constexpr auto json_fields(const TrainResults*) {
  return fields(field("records", &TrainResults::records), field("checks", &TrainResults::verifications));
}

// DpPhases' keys are kDpPhaseFields' names + "_s".
void to_json(nlohmann::json& j, const DpPhases& p);
void from_json(const nlohmann::json& j, DpPhases& p);
void to_json(nlohmann::json& j, const TrainRecord& r);
void from_json(const nlohmann::json& j, TrainRecord& r);
void to_json(nlohmann::json& j, const TrainVerification& c);
void from_json(const nlohmann::json& j, TrainVerification& c);
void to_json(nlohmann::json& j, const TrainResults& r);
void from_json(const nlohmann::json& j, TrainResults& r);
void to_json(nlohmann::json& j, const TrainRankFigures& r);
void from_json(const nlohmann::json& j, TrainRankFigures& r);

}  // namespace gpuscale::results
