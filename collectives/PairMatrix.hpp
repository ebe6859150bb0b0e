#pragma once
// Send/recv between every pair of ranks: bandwidth per direction (large message, both directions at
// once) and latency (small message), scheduled as a round-robin tournament so that no rank is in two
// pairs at once. The matrix holds the measurements and the run's --pair-threshold; the judge decides
// which pairs are slow (phases/collectives/CollectivesChecks.hpp), so `gpuscale report` decides it again.
#include <string>
#include <utility>
#include <vector>

#include "collectives/BenchResources.hpp"
#include "collectives/SweepOptions.hpp"
#include "phases/collectives/CollectiveRecords.hpp"

namespace gpuscale::collectives {

// Circle method: ranks - 1 rounds for an even count (ranks for odd, one rank resting per round); every
// pair (a < b) exactly once, no rank twice in a round.
std::vector<std::vector<std::pair<int, int>>> round_robin(int ranks);

// Collective over the world and `comm` (the world communicator). labels[r] (results::gpu_labels) and node_of[r]
// are read on world rank 0 only, which alone gets a meaningful matrix. Each rank keeps its own row
// (O(ranks)); rank 0 gathers the rows. Its ranks - 1 rounds make it opt-in past kPairMatrixAutoRanks.
results::PairMatrix run_pair_matrix(BenchResources& resources, harness::Communicator& comm,
                                    const SweepOptions& options, const std::vector<std::string>& labels,
                                    const std::vector<int>& node_of);

}  // namespace gpuscale::collectives
