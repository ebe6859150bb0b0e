#include "collectives/Scaling.hpp"

#include "collectives/Measure.hpp"
#include "collectives/Op.hpp"

namespace gpuscale::collectives {

std::vector<Group> scaling_groups(int world_rank, int world_size, int node, int local_rank, int local_size,
                                  int node_count) {
  std::vector<Group> groups;
  for (int k = 2; k < world_size; k *= 2)
    groups.push_back({"first " + std::to_string(k), world_rank < k ? 0 : -1, k, 1});
  if (world_size >= 2) groups.push_back({"world", 0, world_size, 1});
  if (node_count > 1) {
    if (local_size > 1) groups.push_back({"intra-node", node, local_size, node_count});
    groups.push_back({"inter-node", local_rank == 0 ? 0 : -1, node_count, 1});
  }
  return groups;
}

std::vector<results::ScalingPoint> run_scaling(BenchResources& resources, harness::Communicator& world_comm,
                                               const SweepOptions& options, const std::vector<Group>& groups) {
  std::vector<results::ScalingPoint> points;
  if (!resources.skipped_reason().empty()) return points;
  for (const auto& g : groups) {
    auto sub = world_comm.split(g.color, world_comm.rank(), harness::Deadline::after(resources.timeout_s()));
    Bench bench = resources.bench(sub.get());
    for (const auto* op : options.scaling_ops) {
      if (op->rooted && options.root >= g.ranks) continue;
      for (const auto size : options.scaling_sizes) {
        const std::size_t elements = size / harness::size_of(options.type);
        const auto t = measure(bench, options, *op, {false, elements});
        results::ScalingPoint p;
        p.group = g.name;
        p.ranks = g.ranks;
        p.communicators = g.communicators;
        p.op = std::string(op->name);
        p.size_bytes = size_bytes(op->layout(elements, g.ranks, 0), options.type);
        p.time_s = t.time_s;
        p.busbw_gbps = t.busbw_gbps;
        p.wrong = t.wrong;
        p.wrong_ranks = t.wrong_ranks;
        points.push_back(std::move(p));
      }
    }
  }
  return points;
}

}  // namespace gpuscale::collectives
