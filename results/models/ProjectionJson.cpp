// JSON of the projection records (results/models/Projection.hpp): field names are the members'.
#include <nlohmann/json.hpp>

#include "results/models/Projection.hpp"

namespace gpuscale::results {

void to_json(nlohmann::json& j, const NcclModelPoint& v) {
  j = {{"size_bytes", v.size_bytes}, {"fitted_s", v.fitted_s}, {"nccl_s", v.nccl_s}, {"nccl_choice", v.nccl_choice}};
}

void from_json(const nlohmann::json& j, NcclModelPoint& v) {
  j.at("size_bytes").get_to(v.size_bytes);
  j.at("fitted_s").get_to(v.fitted_s);
  j.at("nccl_s").get_to(v.nccl_s);
  j.at("nccl_choice").get_to(v.nccl_choice);
}

void to_json(nlohmann::json& j, const TierFit& v) {
  j = {{"op", v.op},       {"tier", v.tier},         {"source", v.source},
       {"ranks", v.ranks}, {"fit", v.fit},           {"link_alpha_s", v.link_alpha_s},
       {"link_beta_s_per_byte", v.link_beta_s_per_byte}};
  if (!v.nccl_model.empty()) j["nccl_model"] = v.nccl_model;
}

void from_json(const nlohmann::json& j, TierFit& v) {
  j.at("op").get_to(v.op);
  j.at("tier").get_to(v.tier);
  j.at("source").get_to(v.source);
  j.at("ranks").get_to(v.ranks);
  j.at("fit").get_to(v.fit);
  j.at("link_alpha_s").get_to(v.link_alpha_s);
  j.at("link_beta_s_per_byte").get_to(v.link_beta_s_per_byte);
  if (j.contains("nccl_model")) j.at("nccl_model").get_to(v.nccl_model);
}

void to_json(nlohmann::json& j, const ProjectedCollective& v) {
  j = {{"op", v.op},         {"algorithm", v.algorithm},   {"ranks", v.ranks},         {"nodes", v.nodes},
       {"size_bytes", v.size_bytes}, {"time_s", v.time_s}, {"busbw_gbps", v.busbw_gbps}, {"bottleneck", v.bottleneck}};
}

void from_json(const nlohmann::json& j, ProjectedCollective& v) {
  j.at("op").get_to(v.op);
  j.at("algorithm").get_to(v.algorithm);
  j.at("ranks").get_to(v.ranks);
  j.at("nodes").get_to(v.nodes);
  j.at("size_bytes").get_to(v.size_bytes);
  j.at("time_s").get_to(v.time_s);
  j.at("busbw_gbps").get_to(v.busbw_gbps);
  j.at("bottleneck").get_to(v.bottleneck);
}

void to_json(nlohmann::json& j, const ProjectedDdpStep& v) {
  j = {{"config", v.config},
       {"model", v.model},
       {"precision", v.precision},
       {"measured_gpus", v.measured_gpus},
       {"ranks", v.ranks},
       {"buckets", v.buckets},
       {"gradient_bytes", v.gradient_bytes},
       {"compute_s", v.compute_s},
       {"overlap_pct", v.overlap_pct},
       {"measured_comm_s", v.measured_comm_s},
       {"modelled_comm_at_measured_s", v.modelled_comm_at_measured_s},
       {"algorithm", v.algorithm},
       {"comm_s", v.comm_s},
       {"exposed_comm_s", v.exposed_comm_s},
       {"step_s", v.step_s},
       {"samples_per_s", v.samples_per_s},
       {"efficiency", v.efficiency}};
}

void from_json(const nlohmann::json& j, ProjectedDdpStep& v) {
  j.at("config").get_to(v.config);
  j.at("model").get_to(v.model);
  j.at("precision").get_to(v.precision);
  j.at("measured_gpus").get_to(v.measured_gpus);
  j.at("ranks").get_to(v.ranks);
  j.at("buckets").get_to(v.buckets);
  j.at("gradient_bytes").get_to(v.gradient_bytes);
  j.at("compute_s").get_to(v.compute_s);
  j.at("overlap_pct").get_to(v.overlap_pct);
  j.at("measured_comm_s").get_to(v.measured_comm_s);
  j.at("modelled_comm_at_measured_s").get_to(v.modelled_comm_at_measured_s);
  j.at("algorithm").get_to(v.algorithm);
  j.at("comm_s").get_to(v.comm_s);
  j.at("exposed_comm_s").get_to(v.exposed_comm_s);
  j.at("step_s").get_to(v.step_s);
  j.at("samples_per_s").get_to(v.samples_per_s);
  j.at("efficiency").get_to(v.efficiency);
}

void to_json(nlohmann::json& j, const Projection& v) {
  j = {{"target_ranks", v.target_ranks}, {"gpus_per_node", v.gpus_per_node}, {"fits", v.fits},
       {"collectives", v.collectives},   {"ddp", v.ddp},                     {"notes", v.notes}};
}

void from_json(const nlohmann::json& j, Projection& v) {
  j.at("target_ranks").get_to(v.target_ranks);
  j.at("gpus_per_node").get_to(v.gpus_per_node);
  j.at("fits").get_to(v.fits);
  j.at("collectives").get_to(v.collectives);
  j.at("ddp").get_to(v.ddp);
  j.at("notes").get_to(v.notes);
}

}  // namespace gpuscale::results
