#pragma once
// Localisation of a slow node or link in three parts, each costing the same number of steps at any
// node count but the last (log2 of the nodes):
//   node-local: an allreduce inside every node at once (each node's own links);
//   rounds:     seeded random matchings of nodes (collectives/Matching); in each round every rail
//               (the ranks of equal local rank) exchanges with the partner node's rank (sendrecv),
//               then each pair of ranks allreduces over its own communicator;
//   bisection:  collectives/Bisection over one rank per node, each half on its own split communicator.
// Per rank the figures are O(nodes) doubles; nothing grows with the square of the ranks.
//
// Each measurement (a step: the node-local allreduce, a round's sendrecv, its allreduce, a bisection
// step) times -n operations after -w warm-up, then as many more passes of -n as make the job's typical
// (median) first pass of the step span kIsolationSpanS: a node stopped from outside for most of every
// few hundred ms (a duty cycle) is stopped within every one of its measurements, whereas -n short
// operations fit in the moments it runs. Its figure is the mean over every pass, so a stop that fell
// in its first pass counts too. The slowest first pass bounds the passes (kIsolationMaxSpanS), so a
// node ten times slower does not stretch every step tenfold. The ranks agree on the passes through
// one reduction over the world per step (a double per rank).
#include <string>
#include <vector>

#include "collectives/BenchResources.hpp"
#include "collectives/SweepOptions.hpp"
#include "harness/BudgetGate.hpp"
#include "phases/collectives/IsolationRecord.hpp"

namespace gpuscale::collectives {

// The span a step measures at the job's typical speed: more than the moments a node
// stopped 150 ms in every 200 ms runs (50 ms) or one stopped 375 in every 500 (125 ms), so that such a
// node is stopped during each of its measurements.
inline constexpr double kIsolationSpanS = 0.25;
// The most a step's slowest first pass is stretched to: past it the first pass stands alone.
inline constexpr double kIsolationMaxSpanS = 1.0;
inline constexpr int kIsolationMaxPasses = 1000;

// Passes of -n operations each rank makes in a step, from the median and the slowest first pass over
// the ranks that measured (seconds for -n operations): ceil(kIsolationSpanS / typical), at most
// floor(kIsolationMaxSpanS / slowest) and kIsolationMaxPasses, at least 1. 1 where nothing was measured.
int isolation_passes(double typical_s, double slowest_s);

// Collective over the world and `world_comm` (its communicator). node_hosts[node] is read on world
// rank 0, which alone gets the whole record. The record holds measurements only: the judge ranks the
// suspects from them (phases/collectives/SuspectRanking.hpp), so a saved run is ranked again by today's rules.
// The bisection alone decides here, as it goes, since its choice steers what it measures next.
// Buffers of `resources` hold at least options.isolation_bytes. With a bounded `budget` (collective
// over the world) the bisection runs before the rounds, and the rounds stop once the budget is spent:
// the bisection names a slow node in log2(nodes) steps, whatever the rounds left out.
results::IsolationRecord run_isolation(BenchResources& resources, harness::Communicator& world_comm,
                                       const SweepOptions& options, const std::vector<std::string>& node_hosts,
                                       harness::BudgetGate* budget = nullptr);

}  // namespace gpuscale::collectives
