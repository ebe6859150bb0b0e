#include "results/BurnRecord.hpp"

#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const BurnProgress& p) { j = {p.t_s, p.flops}; }
void from_json(const nlohmann::json& j, BurnProgress& p) {
  p.t_s = j.at(0).get<double>();
  p.flops = j.at(1).get<double>();
}

void to_json(nlohmann::json& j, const BurnSample& s) {
  j = {{"t_s", s.t_s}};
  put_optional(j, "sm_clock_mhz", s.sm_clock_mhz);
  put_optional(j, "power_w", s.power_w);
  put_optional(j, "temperature_c", s.temperature_c);
  put_optional(j, "clock_event_reasons", s.clock_event_reasons);
}
void from_json(const nlohmann::json& j, BurnSample& s) {
  j.at("t_s").get_to(s.t_s);
  get_optional(j, "sm_clock_mhz", s.sm_clock_mhz);
  get_optional(j, "power_w", s.power_w);
  get_optional(j, "temperature_c", s.temperature_c);
  get_optional(j, "clock_event_reasons", s.clock_event_reasons);
}

void to_json(nlohmann::json& j, const BurnCounters& c) {
  j = nlohmann::json::object();
  put_optional(j, "ecc_corrected", c.ecc_corrected);
  put_optional(j, "ecc_uncorrected", c.ecc_uncorrected);
  put_optional(j, "power_cap_ns", c.power_cap_ns);
  put_optional(j, "thermal_ns", c.thermal_ns);
}
void from_json(const nlohmann::json& j, BurnCounters& c) {
  get_optional(j, "ecc_corrected", c.ecc_corrected);
  get_optional(j, "ecc_uncorrected", c.ecc_uncorrected);
  get_optional(j, "power_cap_ns", c.power_cap_ns);
  get_optional(j, "thermal_ns", c.thermal_ns);
}

void to_json(nlohmann::json& j, const BurnWindow& w) { j = {{"start_s", w.start_s}, {"tflops", w.tflops}}; }
void from_json(const nlohmann::json& j, BurnWindow& w) {
  j.at("start_s").get_to(w.start_s);
  j.at("tflops").get_to(w.tflops);
}

void to_json(nlohmann::json& j, const BurnRecord& r) {
  j = {{"rank", r.rank},
       {"host", r.host},
       {"gpu", r.gpu},
       {"precision", r.precision},
       {"shape", r.shape},
       {"algorithm", r.algorithm},
       {"requested_s", r.requested_s},
       {"flops_per_call", r.flops_per_call},
       {"calls", r.calls},
       {"window_s", r.window_s},
       {"settle_s", r.settle_s},
       {"progress", r.progress},
       {"windows", r.windows},
       {"elapsed_s", r.elapsed_s},
       {"sustained_tflops", r.sustained_tflops},
       {"first_tflops", r.first_tflops},
       {"first_to_sustained", r.first_to_sustained},
       {"samples", r.samples},
       {"telemetry_unavailable", r.telemetry_unavailable},
       {"throttle_share", r.throttle_share},
       {"counters", r.counters},
       {"output_hashes", r.output_hashes},
       {"slow", r.slow},
       {"wrong_result", r.wrong_result}};
  put_optional(j, "peak_tflops", r.peak_tflops);
  put_optional(j, "floor_tflops", r.floor_tflops);
  put_optional(j, "clock_p10_mhz", r.clock_p10_mhz);
  put_optional(j, "clock_p50_mhz", r.clock_p50_mhz);
  put_optional(j, "power_p50_w", r.power_p50_w);
  put_optional(j, "peak_temperature_c", r.peak_temperature_c);
}

void from_json(const nlohmann::json& j, BurnRecord& r) {
  j.at("rank").get_to(r.rank);
  j.at("host").get_to(r.host);
  j.at("gpu").get_to(r.gpu);
  j.at("precision").get_to(r.precision);
  j.at("shape").get_to(r.shape);
  j.at("algorithm").get_to(r.algorithm);
  j.at("requested_s").get_to(r.requested_s);
  j.at("flops_per_call").get_to(r.flops_per_call);
  j.at("calls").get_to(r.calls);
  j.at("window_s").get_to(r.window_s);
  j.at("settle_s").get_to(r.settle_s);
  j.at("progress").get_to(r.progress);
  j.at("windows").get_to(r.windows);
  j.at("elapsed_s").get_to(r.elapsed_s);
  j.at("sustained_tflops").get_to(r.sustained_tflops);
  j.at("first_tflops").get_to(r.first_tflops);
  j.at("first_to_sustained").get_to(r.first_to_sustained);
  j.at("samples").get_to(r.samples);
  j.at("telemetry_unavailable").get_to(r.telemetry_unavailable);
  j.at("throttle_share").get_to(r.throttle_share);
  j.at("counters").get_to(r.counters);
  j.at("output_hashes").get_to(r.output_hashes);
  j.at("slow").get_to(r.slow);
  j.at("wrong_result").get_to(r.wrong_result);
  get_optional(j, "peak_tflops", r.peak_tflops);
  get_optional(j, "floor_tflops", r.floor_tflops);
  get_optional(j, "clock_p10_mhz", r.clock_p10_mhz);
  get_optional(j, "clock_p50_mhz", r.clock_p50_mhz);
  get_optional(j, "power_p50_w", r.power_p50_w);
  get_optional(j, "peak_temperature_c", r.peak_temperature_c);
}

}  // namespace gpuscale::results
