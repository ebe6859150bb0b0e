#include "results/models/ProjectionModel.hpp"

#include <cmath>

namespace gpuscale::results {

std::string_view to_string(Algorithm a) { return a == Algorithm::ring ? "ring" : "tree"; }

bool projectable(std::string_view op) { return op == "allreduce" || op == "allgather" || op == "reducescatter"; }

double ring_traffic_factor(std::string_view op, int ranks) {
  if (ranks < 1 || !projectable(op)) return 0;
  const double share = static_cast<double>(ranks - 1) / ranks;
  return op == "allreduce" ? 2 * share : share;
}

int ring_steps(std::string_view op, int ranks) {
  if (ranks < 1 || !projectable(op)) return 0;
  return op == "allreduce" ? 2 * (ranks - 1) : ranks - 1;
}

LinkCost link_from_fit(std::string_view op, int ranks, double alpha_s, double beta_s_per_byte) {
  const int steps = ring_steps(op, ranks);
  const double factor = ring_traffic_factor(op, ranks);
  if (steps <= 0 || factor <= 0) return {};
  return {alpha_s / steps, beta_s_per_byte / factor};
}

double projected_time_s(std::string_view op, Algorithm algorithm, const JobShape& job, double bytes,
                        const LinkCost& intra, const LinkCost& inter) {
  const int nodes = job.nodes();
  const LinkCost& bottleneck = nodes > 1 ? inter : intra;
  const double bandwidth_s = ring_traffic_factor(op, job.ranks) * bytes * bottleneck.beta_s_per_byte;
  if (algorithm == Algorithm::ring || op != "allreduce" || nodes == 1)
    return ring_steps(op, job.ranks) * bottleneck.alpha_s + bandwidth_s;
  const int gpus = job.gpus_per_node < job.ranks ? job.gpus_per_node : job.ranks;
  const double depth = std::ceil(std::log2(static_cast<double>(nodes)));
  return 2 * ((gpus - 1) * intra.alpha_s + depth * inter.alpha_s) + bandwidth_s;
}

double projected_busbw_gbps(std::string_view op, int ranks, double bytes, double time_s) {
  if (!(time_s > 0)) return 0;
  return bytes / time_s * ring_traffic_factor(op, ranks) / 1e9;
}

}  // namespace gpuscale::results
