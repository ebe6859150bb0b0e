#pragma once
// The compute phase's figures: one record per rank, layer shape, precision and pass. Plain data,
// made by workloads/ on every rank, gathered to rank 0, printed by the reporters.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/Check.hpp"
#include "results/base/PhaseNames.hpp"
#include "results/base/RecordFields.hpp"
#include "results/base/RecordMarks.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {

// The phase's planned kinds (PlannedItem::kind, results/base/PlanRecord.hpp).
namespace planned {
// One precision (labels.precision) over the plan's shapes and passes.
inline constexpr char kCompute[] = "compute";
}  // namespace planned

// The reference verification of one layer and precision, run before timing (on a smaller shape when the
// timed one is too large for the cpu reference).
struct ComputeVerification {
  bool ran = false;
  bool passed = false;
  double relative_error = 0;  // ||out - ref||_2 / ||ref||_2; NaN (null in JSON) when the output had NaN
  double limit = 0;
  std::string shape;  // the shape verified
};

struct ComputeRecord {
  int rank = 0;
  std::string gpu;        // device name ("NVIDIA H200"), "cpu" on the cpu backend
  std::string set;        // where the shape comes from: "default", "user", "mlp", "resnet50", ...
  std::string name;       // the layer within the set ("layer1.0.conv2"); may be empty
  std::string layer;      // "linear" | "conv2d"
  std::string shape;      // "M4096 N4096 K4096", "N32 C256 H56 W56 K256 R3 S3 s1 p1 d1 nhwc"
  std::string precision;  // "fp32" | "tf32" | "fp16" | "bf16"
  std::string pass;       // "fwd" | "bwd_data" | "bwd_weight"
  double flops = 0;       // per call
  std::string algorithm;
  std::uint64_t workspace_bytes = 0;
  std::uint64_t memory_bytes = 0;  // tensors + workspace this measurement held on the device
  std::vector<double> samples_s;   // one per timed call, after warm-up
  Summary time_s;
  double tflops = 0;                  // flops / median time / 1e12
  std::optional<double> peak_tflops;  // the GPU's dense peak for this precision, where known
  ComputeVerification verification;
  std::string skipped_reason;  // non-empty: not measured (out of memory, unsupported), and why
  // "burst": timed right after a few warm-up calls, at the clock of a GPU just back from idle;
  // "settled": after --warmup-ms or over --min-time-ms, nearer what a long job sees.
  std::string timing = "burst";
};

// The judge's marks on compute's records (results/base/RecordMarks.hpp), and where the JSON writes each
// in its record's object.
enum class ComputeMark {
  straggler,      // slower than the median rank by more than the threshold
  beside_tenant,  // measured while another process computed on its GPU (judge/TenancyChecks.hpp)
};
constexpr std::string_view phase_of(ComputeMark) { return phase::compute; }
inline constexpr MarkKey kComputeMarkKeys[] = {
    flag_mark(ComputeMark::straggler, "straggler", Unmarked::written),
    flag_mark(ComputeMark::beside_tenant, "beside_tenant", Unmarked::omitted),
};
constexpr std::span<const MarkKey> mark_keys(const std::vector<ComputeRecord>*) { return kComputeMarkKeys; }

constexpr auto json_fields(const ComputeVerification*) {
  using T = ComputeVerification;
  return fields(field("ran", &T::ran), field("passed", &T::passed),
                field("relative_error", &T::relative_error).as<NanAsNull>(), field("limit", &T::limit),
                field("shape", &T::shape));
}

constexpr auto json_fields(const ComputeRecord*) {
  using T = ComputeRecord;
  return fields(field("rank", &T::rank), field("gpu", &T::gpu), field("set", &T::set), field("name", &T::name),
                field("layer", &T::layer), field("shape", &T::shape), field("precision", &T::precision),
                field("pass", &T::pass), field("flops", &T::flops), field("algorithm", &T::algorithm),
                field("workspace_bytes", &T::workspace_bytes), field("memory_bytes", &T::memory_bytes),
                field("samples_s", &T::samples_s), field("time_s", &T::time_s),
                field("tflops", &T::tflops).as<NanAsNull>(), field("check", &T::verification),
                field("skipped_reason", &T::skipped_reason), field("timing", &T::timing).optional(),
                field("peak_tflops", &T::peak_tflops));
}

void to_json(nlohmann::json& j, const ComputeVerification& c);
void from_json(const nlohmann::json& j, ComputeVerification& c);
void to_json(nlohmann::json& j, const ComputeRecord& r);
void from_json(const nlohmann::json& j, ComputeRecord& r);

}  // namespace gpuscale::results
