#pragma once
// Localisation of a slow node or link in three parts, each costing the same number of steps at any
// node count but the last (log2 of the nodes):
//   node-local: an allreduce inside every node at once (each node's own links);
//   rounds:     seeded random matchings of nodes (collectives/Matching); in each round every rail
//               (the ranks of equal local rank) exchanges with the partner node's rank (sendrecv),
//               then each pair of ranks allreduces over its own communicator;
//   bisection:  collectives/Bisection over one rank per node, each half on its own split communicator.
// Per rank the figures are O(nodes) doubles; nothing grows with the square of the ranks.
#include <string>
#include <vector>

#include "collectives/BenchResources.hpp"
#include "collectives/SweepOptions.hpp"
#include "harness/BudgetGate.hpp"
#include "results/schema/IsolationRecord.hpp"

namespace gpuscale::collectives {

// Collective over the world and `world_comm` (its communicator). node_hosts[node] is read on world
// rank 0, which alone gets the whole record with its ranked suspects (results/models/SuspectRanking).
// Buffers of `resources` hold at least options.isolation_bytes. With a bounded `budget` (collective
// over the world) the bisection runs before the rounds, and the rounds stop once the budget is spent:
// the bisection names a slow node in log2(nodes) steps, whatever the rounds left out.
results::IsolationRecord run_isolation(BenchResources& resources, harness::Communicator& world_comm,
                                       const SweepOptions& options, const std::vector<std::string>& node_hosts,
                                       harness::BudgetGate* budget = nullptr);

}  // namespace gpuscale::collectives
