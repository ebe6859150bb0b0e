#include "results/ComputeRecord.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"

namespace gpuscale::results {
namespace {

// JSON has no NaN: nlohmann writes it as null, and null reads back as NaN here.
double number_or_nan(const nlohmann::json& j, const char* key) {
  const auto& value = j.at(key);
  return value.is_null() ? std::nan("") : value.get<double>();
}

}  // namespace

void to_json(nlohmann::json& j, const ComputeVerification& c) {
  j = {{"ran", c.ran},
       {"passed", c.passed},
       {"relative_error", c.relative_error},
       {"limit", c.limit},
       {"shape", c.shape}};
}

void from_json(const nlohmann::json& j, ComputeVerification& c) {
  j.at("ran").get_to(c.ran);
  j.at("passed").get_to(c.passed);
  c.relative_error = number_or_nan(j, "relative_error");
  j.at("limit").get_to(c.limit);
  j.at("shape").get_to(c.shape);
}

void to_json(nlohmann::json& j, const ComputeRecord& r) {
  j = {{"rank", r.rank},
       {"gpu", r.gpu},
       {"set", r.set},
       {"name", r.name},
       {"layer", r.layer},
       {"shape", r.shape},
       {"precision", r.precision},
       {"pass", r.pass},
       {"flops", r.flops},
       {"algorithm", r.algorithm},
       {"workspace_bytes", r.workspace_bytes},
       {"memory_bytes", r.memory_bytes},
       {"samples_s", r.samples_s},
       {"time_s", r.time_s},
       {"tflops", r.tflops},
       {"check", r.verification},
       {"skipped_reason", r.skipped_reason},
       {"straggler", r.straggler},
       {"timing", r.timing}};
  put_optional(j, "peak_tflops", r.peak_tflops);
}

void from_json(const nlohmann::json& j, ComputeRecord& r) {
  j.at("rank").get_to(r.rank);
  j.at("gpu").get_to(r.gpu);
  j.at("set").get_to(r.set);
  j.at("name").get_to(r.name);
  j.at("layer").get_to(r.layer);
  j.at("shape").get_to(r.shape);
  j.at("precision").get_to(r.precision);
  j.at("pass").get_to(r.pass);
  j.at("flops").get_to(r.flops);
  j.at("algorithm").get_to(r.algorithm);
  j.at("workspace_bytes").get_to(r.workspace_bytes);
  j.at("memory_bytes").get_to(r.memory_bytes);
  j.at("samples_s").get_to(r.samples_s);
  j.at("time_s").get_to(r.time_s);
  r.tflops = number_or_nan(j, "tflops");
  j.at("check").get_to(r.verification);
  j.at("skipped_reason").get_to(r.skipped_reason);
  j.at("straggler").get_to(r.straggler);
  get_if_present(j, "timing", r.timing);
  get_optional(j, "peak_tflops", r.peak_tflops);
}

}  // namespace gpuscale::results
