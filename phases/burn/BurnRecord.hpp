#pragma once
// The burn phase's figures: one record per rank. Every GPU runs one GEMM back to back for the burn's
// seconds while a sampler reads its clock, power, temperature and clock-event reasons; throughput is
// work done over wall time in fixed windows. Plain data, made by workloads/ and launch/ on every rank,
// gathered to rank 0, judged by BurnChecks, printed by the reporters.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/PhaseNames.hpp"
#include "results/base/RecordFields.hpp"
#include "results/base/RecordMarks.hpp"

namespace gpuscale::results {

// The phase's planned kinds (PlannedItem::kind, results/base/PlanRecord.hpp).
namespace planned {
inline constexpr char kBurn[] = "burn";  // the sustained GEMM (labels.precision)
}  // namespace planned

// Work done by a point in time: `flops` in all since the burn's start, complete `t_s` seconds after it
// (device time on the cuda backend: the completion of an event recorded after a batch of calls).
struct BurnProgress {
  double t_s = 0;
  double flops = 0;
};

// One telemetry reading, `t_s` seconds after the burn's start. A field NVML did not answer is absent.
struct BurnSample {
  double t_s = 0;
  std::optional<double> sm_clock_mhz;
  std::optional<double> power_w;
  std::optional<double> temperature_c;
  std::optional<std::uint64_t> clock_event_reasons;  // NVML's bit mask (nvmlClocksEventReason*)
};

// Counters read before and after the burn; the record keeps after - before. Absent: not readable.
struct BurnCounters {
  std::optional<std::uint64_t> ecc_corrected, ecc_uncorrected;  // volatile totals
  std::optional<std::uint64_t> power_cap_ns, thermal_ns;        // cumulative clock-event time
};

struct BurnWindow {
  double start_s = 0;
  double tflops = 0;  // work finished inside [start_s, start_s + window_s) over window_s
};

struct BurnRecord {
  int rank = 0;
  std::string host;
  std::string gpu;         // device name ("NVIDIA H200"), "cpu" on the cpu backend
  std::string precision;   // "bf16", ...
  std::string shape;       // "M8192 N8192 K8192"
  std::string algorithm;   // what every call ran; the hash comparison needs it alike across ranks
  double requested_s = 0;  // --burn-s
  double flops_per_call = 0;
  std::uint64_t calls = 0;
  double window_s = 0.25;
  double settle_s = 1;     // the first stretch, left out of the sustained figure
  std::vector<BurnProgress> progress;  // raw completions, in time order
  std::vector<BurnWindow> windows;
  double elapsed_s = 0;             // the last completion
  double sustained_tflops = 0;      // work over wall time after settle_s
  double first_tflops = 0;          // work over wall time in the first settle_s
  double first_to_sustained = 0;    // first_tflops / sustained_tflops
  std::optional<double> peak_tflops;  // the GPU's dense peak for the precision, where known
  // Telemetry (the cuda backend with NVML): samples, and what they add up to.
  std::vector<BurnSample> samples;
  std::string telemetry_unavailable;  // non-empty: why there are no samples (said once in the report)
  std::optional<double> clock_p10_mhz, clock_p50_mhz, power_p50_w, peak_temperature_c;
  std::map<std::string, double> throttle_share;  // reason -> share of samples it was active in
  BurnCounters counters;                         // after - before
  // Silent data corruption: a hash of the GEMM's output at each snapshot during the burn.
  std::vector<std::string> output_hashes;
};

// The judge's marks on burn's records (results/base/RecordMarks.hpp), and where the JSON writes each in
// its record's object.
enum class BurnMark {
  slow,           // under the median of its kind, or the model's floor
  wrong_result,   // its output differs from the majority's, or changed during the burn
  floor,          // the model's floor (results/base/GpuReference.hpp), in TFLOP/s: judge/FloorChecks.hpp
  under_floor,    // sustained under that floor, what the console's UNDER FLOOR reads
  beside_tenant,  // measured while another process computed on its GPU (judge/TenancyChecks.hpp)
};
constexpr std::string_view phase_of(BurnMark) { return phase::burn; }
inline constexpr MarkKey kBurnMarkKeys[] = {
    flag_mark(BurnMark::slow, "slow", Unmarked::written),
    flag_mark(BurnMark::wrong_result, "wrong_result", Unmarked::written),
    value_mark(BurnMark::floor, "floor_tflops"),
    flag_mark(BurnMark::under_floor, "under_floor", Unmarked::omitted),
    flag_mark(BurnMark::beside_tenant, "beside_tenant", Unmarked::omitted),
};
constexpr std::span<const MarkKey> mark_keys(const std::vector<BurnRecord>*) { return kBurnMarkKeys; }

constexpr auto json_fields(const BurnSample*) {
  using T = BurnSample;
  return fields(field("t_s", &T::t_s), field("sm_clock_mhz", &T::sm_clock_mhz), field("power_w", &T::power_w),
                field("temperature_c", &T::temperature_c), field("clock_event_reasons", &T::clock_event_reasons));
}

constexpr auto json_fields(const BurnCounters*) {
  using T = BurnCounters;
  return fields(field("ecc_corrected", &T::ecc_corrected), field("ecc_uncorrected", &T::ecc_uncorrected),
                field("power_cap_ns", &T::power_cap_ns), field("thermal_ns", &T::thermal_ns));
}

constexpr auto json_fields(const BurnWindow*) {
  return fields(field("start_s", &BurnWindow::start_s), field("tflops", &BurnWindow::tflops));
}

constexpr auto json_fields(const BurnRecord*) {
  using T = BurnRecord;
  return fields(field("rank", &T::rank), field("host", &T::host), field("gpu", &T::gpu),
                field("precision", &T::precision), field("shape", &T::shape), field("algorithm", &T::algorithm),
                field("requested_s", &T::requested_s), field("flops_per_call", &T::flops_per_call),
                field("calls", &T::calls), field("window_s", &T::window_s), field("settle_s", &T::settle_s),
                field("progress", &T::progress), field("windows", &T::windows), field("elapsed_s", &T::elapsed_s),
                field("sustained_tflops", &T::sustained_tflops), field("first_tflops", &T::first_tflops),
                field("first_to_sustained", &T::first_to_sustained), field("samples", &T::samples),
                field("telemetry_unavailable", &T::telemetry_unavailable), field("throttle_share", &T::throttle_share),
                field("counters", &T::counters), field("output_hashes", &T::output_hashes),
                field("peak_tflops", &T::peak_tflops), field("clock_p10_mhz", &T::clock_p10_mhz),
                field("clock_p50_mhz", &T::clock_p50_mhz), field("power_p50_w", &T::power_p50_w),
                field("peak_temperature_c", &T::peak_temperature_c));
}

void to_json(nlohmann::json& j, const BurnProgress& p);
void from_json(const nlohmann::json& j, BurnProgress& p);
void to_json(nlohmann::json& j, const BurnSample& s);
void from_json(const nlohmann::json& j, BurnSample& s);
void to_json(nlohmann::json& j, const BurnCounters& c);
void from_json(const nlohmann::json& j, BurnCounters& c);
void to_json(nlohmann::json& j, const BurnWindow& w);
void from_json(const nlohmann::json& j, BurnWindow& w);
void to_json(nlohmann::json& j, const BurnRecord& r);
void from_json(const nlohmann::json& j, BurnRecord& r);

}  // namespace gpuscale::results
