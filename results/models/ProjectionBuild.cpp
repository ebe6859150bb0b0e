#include "results/models/ProjectionBuild.hpp"

#include <algorithm>

#include "results/models/NcclPrediction.hpp"
#include "results/models/ProjectionModel.hpp"
#include "results/schema/RunReport.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::results {
namespace {

constexpr char kIntra[] = "intra-node";
constexpr char kInter[] = "inter-node";
constexpr char kWorld[] = "world";

std::optional<TierFit> make_fit(const std::string& op, const std::string& tier, const std::string& source, int ranks,
                                const std::vector<FitPoint>& points) {
  if (ranks < 2 || !projectable(op)) return std::nullopt;
  const auto fit = fit_alpha_beta(points);
  if (!fit) return std::nullopt;
  const auto link = link_from_fit(op, ranks, fit->alpha_s, fit->beta_s_per_byte);
  return TierFit{op, tier, source, ranks, *fit, link.alpha_s, link.beta_s_per_byte, {}};
}

// The world sweep of each op is one tier: intra-node on one node, "world" across nodes. The scaling
// table adds the intra-node and inter-node tiers of a multi-node job (a few sizes each).
std::vector<TierFit> tier_fits(const RunReport& report) {
  std::vector<TierFit> fits;
  const auto& c = *report.collectives;
  for (const auto& s : c.sweeps) {
    if (!s.skipped_reason.empty() || s.group != kWorld) continue;
    std::vector<FitPoint> points;
    for (const auto& r : s.rows)
      if (r.out_of_place.measured && r.size_bytes > 0) points.push_back({r.size_bytes, r.out_of_place.time_s});
    if (auto f = make_fit(s.op, report.node_count <= 1 ? kIntra : kWorld, "sweep", s.ranks, points))
      fits.push_back(std::move(*f));
  }
  for (const char* group : {kIntra, kInter}) {
    for (const auto& op : {"allreduce", "allgather", "reducescatter"}) {
      std::vector<FitPoint> points;
      int ranks = 0;
      for (const auto& p : c.scaling)
        if (p.group == group && p.op == op && p.size_bytes > 0 && p.time_s > 0) {
          points.push_back({p.size_bytes, p.time_s});
          ranks = p.ranks;
        }
      if (auto f = make_fit(op, group, "scaling", ranks, points)) fits.push_back(std::move(*f));
    }
  }
  return fits;
}

// NCCL's model of the communicator the fit was measured on: the same ranks, on one node (intra-node),
// one rank per node (inter-node), or the job's nodes (world). A model of unknown node count matches by
// ranks alone.
void add_nccl_model(const RunReport& report, TierFit& f) {
  const int nodes = f.tier == kIntra ? 1 : f.tier == kInter ? f.ranks : report.node_count;
  for (const auto& m : report.collectives->nccl_models) {
    if (m.ranks != f.ranks || (m.nodes != 0 && m.nodes != nodes)) continue;
    for (const auto bytes : kProjectionSizes) {
      const auto n = static_cast<double>(bytes);
      if (const auto nccl = nccl_predict(m, f.op, n))
        f.nccl_model.push_back({bytes, f.fit.alpha_s + n * f.fit.beta_s_per_byte, nccl->time_s, nccl->choice});
    }
    return;
  }
}

const TierFit* find_fit(const std::vector<TierFit>& fits, const std::string& op, const std::string& tier) {
  for (const auto& f : fits)
    if (f.op == op && f.tier == tier) return &f;
  return nullptr;
}

LinkCost link_of(const TierFit& f) { return {f.link_alpha_s, f.link_beta_s_per_byte}; }

// The links one op is projected with: each tier's own fit where measured; a multi-node world sweep
// stands for whichever tier is missing; without any inter-node measurement the intra-node link stands
// in for it, which makes multi-node figures an optimistic bound (the bottleneck says so).
struct Links {
  const TierFit* intra = nullptr;
  const TierFit* inter = nullptr;
  bool inter_assumed = false;
};

Links links_for(const std::vector<TierFit>& fits, const std::string& op) {
  Links l;
  const TierFit* world = find_fit(fits, op, kWorld);
  l.intra = find_fit(fits, op, kIntra);
  l.inter = find_fit(fits, op, kInter);
  if (!l.inter) l.inter = world;
  if (!l.intra) l.intra = world ? world : l.inter;
  if (!l.inter && l.intra) {
    l.inter = l.intra;
    l.inter_assumed = true;
  }
  return l;
}

std::string bottleneck_of(const Links& l, int nodes) {
  if (nodes <= 1) return l.intra->tier;
  return l.inter_assumed ? "intra-node (no inter-node measurement: optimistic)" : l.inter->tier;
}

double time_at(const std::string& op, Algorithm a, const JobShape& job, double bytes, const Links& l) {
  return projected_time_s(op, a, job, bytes, link_of(*l.intra), link_of(*l.inter));
}

std::vector<Algorithm> algorithms_of(const std::string& op) {
  if (op == "allreduce") return {Algorithm::ring, Algorithm::tree};
  return {Algorithm::ring};
}

// Under t = alpha + n beta the buckets' total is buckets x t(mean bucket), whatever their split.
double buckets_time(const JobShape& job, Algorithm a, const ProjectedDdpStep& d, const Links& l) {
  if (d.buckets <= 0) return 0;
  return d.buckets * time_at("allreduce", a, job, static_cast<double>(d.gradient_bytes) / d.buckets, l);
}

void project_ddp(const RunReport& report, const Links& l, int gpus_per_node, Projection& out) {
  int measured_gpus = 0;
  for (const auto& r : report.train.records)
    if (r.strategy == "ddp" && r.skipped_reason.empty()) measured_gpus = std::max(measured_gpus, r.gpus);
  for (const auto& r : report.train.records) {
    if (r.strategy != "ddp" || !r.skipped_reason.empty() || r.gpus != measured_gpus || r.scaling != "weak") continue;
    if (!r.compute_s || !r.comm_s || !r.overlap_pct || r.buckets <= 0) continue;
    ProjectedDdpStep base;
    base.config = train_config(r);
    base.model = r.model;
    base.precision = r.precision;
    base.measured_gpus = r.gpus;
    base.buckets = r.buckets;
    base.gradient_bytes = r.parameter_bytes / 4 * (r.grad_dtype == "fp32" ? 4 : 2);
    base.compute_s = *r.compute_s;
    base.overlap_pct = *r.overlap_pct;
    base.measured_comm_s = *r.comm_s;
    const JobShape measured{r.gpus, gpus_per_node};
    base.modelled_comm_at_measured_s = std::min(buckets_time(measured, Algorithm::ring, base, l),
                                                buckets_time(measured, Algorithm::tree, base, l));
    for (const int ranks : out.target_ranks) {
      ProjectedDdpStep d = base;
      d.ranks = ranks;
      const JobShape job{ranks, gpus_per_node};
      const double ring = buckets_time(job, Algorithm::ring, d, l), tree = buckets_time(job, Algorithm::tree, d, l);
      d.algorithm = std::string(to_string(tree < ring ? Algorithm::tree : Algorithm::ring));
      d.comm_s = std::min(ring, tree);
      d.exposed_comm_s = d.comm_s * (1 - d.overlap_pct / 100);
      d.step_s = d.compute_s + d.exposed_comm_s;
      d.samples_per_s = static_cast<double>(r.batch_per_gpu) * r.accum * ranks / d.step_s;
      d.efficiency = d.compute_s / d.step_s;
      out.ddp.push_back(std::move(d));
    }
  }
}

}  // namespace

std::string shared_gpu_fit_note() {
  return std::string("ranks shared a GPU (") + kShareGpuVariable +
         "=1): the fits measure their contention for it, not the links; nothing here projects a real job";
}

std::optional<Projection> build_projection(const RunReport& report, const std::vector<int>& target_ranks) {
  if (target_ranks.empty() || !report.collectives) return std::nullopt;
  Projection p;
  if (report.emulation && report.emulation->shared_gpu) p.notes.push_back(shared_gpu_fit_note());
  p.target_ranks = target_ranks;
  p.gpus_per_node = std::max(1, report.world_size / std::max(1, report.node_count));
  p.fits = tier_fits(report);
  bool nccl_beside = false;
  for (auto& f : p.fits) {
    add_nccl_model(report, f);
    nccl_beside = nccl_beside || !f.nccl_model.empty();
  }
  if (!nccl_beside && !report.collectives->nccl_models.empty())
    p.notes.push_back("NCCL's cost model was captured, but for no communicator a tier was fitted on");
  if (p.fits.empty()) {
    p.notes.push_back("nothing to fit: no allreduce, allgather or reducescatter sweep over two or more ranks");
    return p;
  }
  for (const char* op : {"allreduce", "allgather", "reducescatter"}) {
    const Links l = links_for(p.fits, op);
    if (!l.intra) continue;
    if (l.inter_assumed)
      p.notes.push_back(std::string(op) + ": no inter-node measurement; multi-node sizes use the intra-node link (optimistic)");
    for (const int ranks : target_ranks) {
      const JobShape job{ranks, p.gpus_per_node};
      for (const auto a : algorithms_of(op)) {
        for (const auto bytes : kProjectionSizes) {
          const double t = time_at(op, a, job, static_cast<double>(bytes), l);
          p.collectives.push_back({op, std::string(to_string(a)), ranks, job.nodes(), bytes, t,
                                   projected_busbw_gbps(op, ranks, static_cast<double>(bytes), t),
                                   bottleneck_of(l, job.nodes())});
        }
      }
    }
    if (std::string(op) == "allreduce") project_ddp(report, l, p.gpus_per_node, p);
  }
  return p;
}

}  // namespace gpuscale::results
