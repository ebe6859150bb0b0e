// JSON of the training records: missing measurements are null (JsonFields.hpp), never zero.
#include <nlohmann/json.hpp>

#include "results/JsonFields.hpp"
#include "results/TrainRecord.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const TrainRankFigures& r) {
  j = {{"rank", r.rank}, {"step_samples_s", r.step_samples_s}, {"step_s", r.step_s},
       {"peak_memory_bytes", r.peak_memory_bytes}, {"straggler", r.straggler}};
  put_optional(j, "compute_s", r.compute_s);
  put_optional(j, "comm_s", r.comm_s);
}

void from_json(const nlohmann::json& j, TrainRankFigures& r) {
  j.at("rank").get_to(r.rank);
  j.at("step_samples_s").get_to(r.step_samples_s);
  j.at("step_s").get_to(r.step_s);
  j.at("peak_memory_bytes").get_to(r.peak_memory_bytes);
  j.at("straggler").get_to(r.straggler);
  get_optional(j, "compute_s", r.compute_s);
  get_optional(j, "comm_s", r.comm_s);
}

namespace {

nlohmann::json dp_json(const DpPhases& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, field] : kDpPhaseFields) j[std::string(name) + "_s"] = p.*field;
  return j;
}

DpPhases dp_from(const nlohmann::json& j) {
  DpPhases p;
  for (const auto& [name, field] : kDpPhaseFields) j.at(std::string(name) + "_s").get_to(p.*field);
  return p;
}

}  // namespace

void to_json(nlohmann::json& j, const TrainRecord& r) {
  j = {{"strategy", r.strategy}, {"model", r.model}, {"precision", r.precision}, {"scaling", r.scaling},
       {"gpus", r.gpus}, {"batch_per_gpu", r.batch_per_gpu}, {"global_batch", r.global_batch},
       {"grad_dtype", r.grad_dtype}, {"accum", r.accum}, {"overlap", r.overlap},
       {"optimizer_overlap", r.optimizer_overlap}, {"bucket_mb", r.bucket_mb},
       {"comm_priority", r.comm_priority}, {"comm_buffers", r.comm_buffers}, {"comm_ctas", r.comm_ctas},
       {"comm_ctas_trials", r.comm_ctas_trials}, {"comm_sm_margin", r.comm_sm_margin}, {"h2d", r.h2d}, {"buckets", r.buckets},
       {"parameter_bytes", r.parameter_bytes}, {"step_flops", r.step_flops}, {"step_samples_s", r.step_samples_s},
       {"step_s", r.step_s}, {"samples_per_s", r.samples_per_s}, {"peak_memory_bytes", r.peak_memory_bytes},
       {"ranks", r.ranks}, {"skipped_reason", r.skipped_reason}};
  put_optional(j, "efficiency", r.efficiency);
  put_optional(j, "compute_s", r.compute_s);
  put_optional(j, "comm_s", r.comm_s);
  put_optional(j, "exposed_comm_s", r.exposed_comm_s);
  put_optional(j, "overlap_pct", r.overlap_pct);
  j["dp"] = r.dp ? dp_json(*r.dp) : nlohmann::json(nullptr);
}

void from_json(const nlohmann::json& j, TrainRecord& r) {
  j.at("strategy").get_to(r.strategy);
  j.at("model").get_to(r.model);
  j.at("precision").get_to(r.precision);
  j.at("scaling").get_to(r.scaling);
  j.at("gpus").get_to(r.gpus);
  j.at("batch_per_gpu").get_to(r.batch_per_gpu);
  j.at("global_batch").get_to(r.global_batch);
  j.at("grad_dtype").get_to(r.grad_dtype);
  j.at("accum").get_to(r.accum);
  j.at("overlap").get_to(r.overlap);
  r.optimizer_overlap = j.value("optimizer_overlap", false);  // absent from reports written before it existed
  j.at("bucket_mb").get_to(r.bucket_mb);
  j.at("comm_priority").get_to(r.comm_priority);
  r.comm_buffers = j.value("comm_buffers", std::string("plain"));  // both absent from earlier reports
  r.comm_ctas = j.value("comm_ctas", 0);
  if (j.contains("comm_ctas_trials")) j.at("comm_ctas_trials").get_to(r.comm_ctas_trials);
  r.comm_sm_margin = j.value("comm_sm_margin", 0);  // absent from earlier reports
  j.at("h2d").get_to(r.h2d);
  j.at("buckets").get_to(r.buckets);
  j.at("parameter_bytes").get_to(r.parameter_bytes);
  j.at("step_flops").get_to(r.step_flops);
  j.at("step_samples_s").get_to(r.step_samples_s);
  j.at("step_s").get_to(r.step_s);
  j.at("samples_per_s").get_to(r.samples_per_s);
  j.at("peak_memory_bytes").get_to(r.peak_memory_bytes);
  j.at("ranks").get_to(r.ranks);
  j.at("skipped_reason").get_to(r.skipped_reason);
  get_optional(j, "efficiency", r.efficiency);
  get_optional(j, "compute_s", r.compute_s);
  get_optional(j, "comm_s", r.comm_s);
  get_optional(j, "exposed_comm_s", r.exposed_comm_s);
  get_optional(j, "overlap_pct", r.overlap_pct);
  const auto dp = j.find("dp");
  if (dp != j.end() && !dp->is_null()) r.dp = dp_from(*dp);
}

void to_json(nlohmann::json& j, const TrainVerification& c) {
  j = {{"name", c.name}, {"config", c.config}, {"passed", c.passed}, {"error", c.error}, {"tolerance", c.tolerance},
       {"detail", c.detail}};
}

void from_json(const nlohmann::json& j, TrainVerification& c) {
  j.at("name").get_to(c.name);
  j.at("config").get_to(c.config);
  j.at("passed").get_to(c.passed);
  j.at("error").get_to(c.error);
  j.at("tolerance").get_to(c.tolerance);
  j.at("detail").get_to(c.detail);
}

void to_json(nlohmann::json& j, const TrainResults& r) {
  j = {{"records", r.records}, {"checks", r.verifications}};
}

void from_json(const nlohmann::json& j, TrainResults& r) {
  j.at("records").get_to(r.records);
  j.at("checks").get_to(r.verifications);
}

}  // namespace gpuscale::results
