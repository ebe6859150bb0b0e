#pragma once
// Scaling in one launch: the scaling sizes over sub-communicators of the world (first 2, 4, ..., N
// ranks; one communicator per node; one rank per node), into one table of busbw against ranks.
#include <vector>

#include "collectives/BenchResources.hpp"
#include "collectives/SweepOptions.hpp"
#include "phases/collectives/CollectiveRecords.hpp"

namespace gpuscale::collectives {

// A way of cutting the world into communicators: this rank's color (-1: in none) and the table's name.
struct Group {
  std::string name;
  int color = -1;
  int ranks = 0;          // ranks per communicator (of the communicator rank 0 is in)
  int communicators = 1;
};

// The groups, in table order: "first K" for K = 2, 4, 8, ... < N, then "world" (N); with more than
// one node also "intra-node" (one communicator per node) and "inter-node" (local rank 0 of each node).
std::vector<Group> scaling_groups(int world_rank, int world_size, int node, int local_rank, int local_size,
                                  int node_count);

// Collective over the world and `world_comm`. Meaningful on world rank 0 (a member of every group).
std::vector<results::ScalingPoint> run_scaling(BenchResources& resources, harness::Communicator& world_comm,
                                               const SweepOptions& options, const std::vector<Group>& groups);

}  // namespace gpuscale::collectives
