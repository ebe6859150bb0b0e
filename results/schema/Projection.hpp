#pragma once
// The projection of the measured collectives and DDP steps to larger jobs (`--project-ranks`): the
// alpha-beta fit per collective and tier, the projected time and busbw of ring and tree allreduce,
// allgather and reducescatter at each target size, and each DDP configuration's projected step.
// Built on rank 0 from the report's own records (build_projection), so `gpuscale report` shows the
// same projection; formulas in results/models/ProjectionModel.hpp and docs/PROJECTION.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"
#include "results/schema/FitRecord.hpp"

namespace gpuscale::results {


// Message sizes every collective is projected at (nccl-tests' size): latency, mid and bandwidth.
inline constexpr std::uint64_t kProjectionSizes[] = {8, 1ull << 20, 64ull << 20, 1ull << 30};

// NCCL's own prediction (its cost model, from the tuning log of `--nccl-algo`) for the communicator a
// fit was measured on, beside the fit's, at one message size.
struct NcclModelPoint {
  std::uint64_t size_bytes = 0;
  double fitted_s = 0, nccl_s = 0;
  std::string nccl_choice;  // the algorithm/protocol NCCL's model finds fastest
};

struct TierFit {
  std::string op;
  std::string tier;    // "intra-node", "inter-node", or "world" (a multi-node world sweep)
  std::string source;  // "sweep" (the world sweep) or "scaling" (the scaling table's group)
  int ranks = 0;       // of the communicator measured
  AlphaBetaFit fit;
  double link_alpha_s = 0, link_beta_s_per_byte = 0;  // per ring step (ProjectionModel.hpp)
  std::vector<NcclModelPoint> nccl_model;  // at kProjectionSizes, where NCCL's model was captured
};

struct ProjectedCollective {
  std::string op;
  std::string algorithm;  // "ring" | "tree"
  int ranks = 0, nodes = 0;
  std::uint64_t size_bytes = 0;
  double time_s = 0;
  double busbw_gbps = 0;
  std::string bottleneck;  // the tier fit that bounds it; says when inter-node was assumed
};

struct ProjectedDdpStep {
  std::string config;      // train_config() of the measured record
  std::string model, precision;
  int measured_gpus = 0;
  int ranks = 0;           // target
  int buckets = 0;
  std::uint64_t gradient_bytes = 0;  // allreduced per step
  double compute_s = 0;    // compute-only step, as measured
  double overlap_pct = 0;  // as measured
  double measured_comm_s = 0, modelled_comm_at_measured_s = 0;  // the model's check at the measured size
  std::string algorithm;   // the faster of ring and tree at the target, as NCCL would pick
  double comm_s = 0, exposed_comm_s = 0, step_s = 0, samples_per_s = 0, efficiency = 0;
};

struct Projection {
  std::vector<int> target_ranks;
  int gpus_per_node = 0;   // ranks per node as measured
  std::vector<TierFit> fits;
  std::vector<ProjectedCollective> collectives;
  std::vector<ProjectedDdpStep> ddp;
  std::vector<std::string> notes;  // why something is not projected, and assumptions in force
};

constexpr auto json_fields(const NcclModelPoint*) {
  using T = NcclModelPoint;
  return fields(field("size_bytes", &T::size_bytes), field("fitted_s", &T::fitted_s), field("nccl_s", &T::nccl_s),
                field("nccl_choice", &T::nccl_choice));
}

constexpr auto json_fields(const TierFit*) {
  using T = TierFit;
  return fields(field("op", &T::op), field("tier", &T::tier), field("source", &T::source), field("ranks", &T::ranks),
                field("fit", &T::fit), field("link_alpha_s", &T::link_alpha_s),
                field("link_beta_s_per_byte", &T::link_beta_s_per_byte),
                field("nccl_model", &T::nccl_model).omitted_when_default());
}

constexpr auto json_fields(const ProjectedCollective*) {
  using T = ProjectedCollective;
  return fields(field("op", &T::op), field("algorithm", &T::algorithm), field("ranks", &T::ranks),
                field("nodes", &T::nodes), field("size_bytes", &T::size_bytes), field("time_s", &T::time_s),
                field("busbw_gbps", &T::busbw_gbps), field("bottleneck", &T::bottleneck));
}

constexpr auto json_fields(const ProjectedDdpStep*) {
  using T = ProjectedDdpStep;
  return fields(field("config", &T::config), field("model", &T::model), field("precision", &T::precision),
                field("measured_gpus", &T::measured_gpus), field("ranks", &T::ranks), field("buckets", &T::buckets),
                field("gradient_bytes", &T::gradient_bytes), field("compute_s", &T::compute_s),
                field("overlap_pct", &T::overlap_pct), field("measured_comm_s", &T::measured_comm_s),
                field("modelled_comm_at_measured_s", &T::modelled_comm_at_measured_s),
                field("algorithm", &T::algorithm), field("comm_s", &T::comm_s),
                field("exposed_comm_s", &T::exposed_comm_s), field("step_s", &T::step_s),
                field("samples_per_s", &T::samples_per_s), field("efficiency", &T::efficiency));
}

constexpr auto json_fields(const Projection*) {
  using T = Projection;
  return fields(field("target_ranks", &T::target_ranks), field("gpus_per_node", &T::gpus_per_node),
                field("fits", &T::fits), field("collectives", &T::collectives), field("ddp", &T::ddp),
                field("notes", &T::notes));
}

void to_json(nlohmann::json& j, const NcclModelPoint& v);
void from_json(const nlohmann::json& j, NcclModelPoint& v);
void to_json(nlohmann::json& j, const TierFit& v);
void from_json(const nlohmann::json& j, TierFit& v);
void to_json(nlohmann::json& j, const ProjectedCollective& v);
void from_json(const nlohmann::json& j, ProjectedCollective& v);
void to_json(nlohmann::json& j, const ProjectedDdpStep& v);
void from_json(const nlohmann::json& j, ProjectedDdpStep& v);
void to_json(nlohmann::json& j, const Projection& v);
void from_json(const nlohmann::json& j, Projection& v);

}  // namespace gpuscale::results
