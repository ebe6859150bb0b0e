#pragma once
// The formulas that carry a fitted collective to a larger job (docs/PROJECTION.md states them and
// their assumptions). Pure functions; seconds, bytes, GB/s (1e9 B/s).
//
// A tier's link is described per ring step: alpha_s, the latency of one step, and beta_s_per_byte,
// the time per byte a rank sends over its link. A fit of op at p0 ranks, t = A + n B, gives
// alpha = A / steps(p0) and beta = B / factor(p0), where steps and factor are the ring's.
#include <string_view>

namespace gpuscale::results {

struct LinkCost {
  double alpha_s = 0;          // per ring step
  double beta_s_per_byte = 0;  // per byte over one rank's link; 1 / beta is the link's busbw
};

enum class Algorithm { ring, tree };
std::string_view to_string(Algorithm a);

// The collectives the projection models: allreduce, allgather, reducescatter.
bool projectable(std::string_view op);
// nccl-tests' busbw factor, which is also the ring's bytes per rank per byte of size:
// allreduce 2(p-1)/p, allgather and reducescatter (p-1)/p. 0 for other ops.
double ring_traffic_factor(std::string_view op, int ranks);
// Ring steps: allreduce 2(p-1) (reduce-scatter then allgather), allgather and reducescatter p-1.
int ring_steps(std::string_view op, int ranks);

// The link behind a fit t = alpha_s + n beta_s_per_byte of op over `ranks` (>= 2) ranks.
LinkCost link_from_fit(std::string_view op, int ranks, double alpha_s, double beta_s_per_byte);

// A job of `ranks` ranks on nodes of gpus_per_node; the last node may be partly used.
struct JobShape {
  int ranks = 0;
  int gpus_per_node = 1;
  int nodes() const { return (ranks + gpus_per_node - 1) / gpus_per_node; }
};

// Time of op at `bytes` (nccl-tests' size) over the job. One node: every step is an intra-node
// step. More nodes: the inter-node link is the bottleneck of every ring step (each step waits for
// its slowest hop). Tree (allreduce only): NCCL's shape, a chain inside each node and a binary tree
// over nodes, up and down: 2((g-1) alpha_intra + ceil(log2 N) alpha_inter), with the ring's
// bandwidth term (the double binary tree sends every byte over each link once each way).
double projected_time_s(std::string_view op, Algorithm algorithm, const JobShape& job, double bytes,
                        const LinkCost& intra, const LinkCost& inter);

// nccl-tests' busbw of that time: bytes / time x factor, in GB/s.
double projected_busbw_gbps(std::string_view op, int ranks, double bytes, double time_s);

}  // namespace gpuscale::results
