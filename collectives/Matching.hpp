#pragma once
// Seeded random perfect matchings of nodes, for the isolation rounds: each round pairs every node
// with one partner, so a node slow in every round is slow itself, while a slow partner or link shows
// in one round only. Plain functions: local, deterministic for a seed, the same on every rank.
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuscale::collectives {

using Matching = std::vector<std::pair<int, int>>;  // (a, b) with a < b; no node twice

// `rounds` matchings of nodes 0..nodes-1. With an odd count one node rests per round (each in turn
// before any rests twice). Of a few seeded shuffles per round the one repeating earlier pairs least
// (weighted by how often each met) is kept, so partners change from round to round.
std::vector<Matching> random_matchings(int nodes, int rounds, std::uint64_t seed);

// partner[node] in one matching; -1 for a node that rests.
std::vector<int> partners(const Matching& matching, int nodes);

}  // namespace gpuscale::collectives
