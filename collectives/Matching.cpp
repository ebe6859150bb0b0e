#include "collectives/Matching.hpp"

#include <algorithm>
#include <map>
#include <random>

namespace gpuscale::collectives {
namespace {

// Shuffles tried per round: enough to avoid repeats among tens of nodes, cheap for thousands.
constexpr int kCandidates = 32;

// Fisher-Yates with the engine's raw output: std::shuffle and the distributions differ between
// standard libraries, and every rank must draw the same rounds.
void shuffle(std::vector<int>& v, std::mt19937_64& engine) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[engine() % i]);
}

}  // namespace

std::vector<Matching> random_matchings(int nodes, int rounds, std::uint64_t seed) {
  std::vector<Matching> out;
  if (nodes < 2) return out;
  std::mt19937_64 engine(seed);
  std::map<std::pair<int, int>, std::size_t> met;  // how often each pair played so far
  std::vector<int> rests(static_cast<std::size_t>(nodes), 0);
  for (int r = 0; r < rounds; ++r) {
    Matching best;
    std::size_t best_repeats = SIZE_MAX;
    int best_rest = -1;
    for (int c = 0; c < kCandidates; ++c) {
      std::vector<int> order(static_cast<std::size_t>(nodes));
      for (int i = 0; i < nodes; ++i) order[static_cast<std::size_t>(i)] = i;
      shuffle(order, engine);
      int rest = -1;
      if (nodes % 2) {  // the node that rested least (the first in shuffled order among them) sits out
        auto least = std::min_element(order.begin(), order.end(), [&](int x, int y) {
          return rests[static_cast<std::size_t>(x)] < rests[static_cast<std::size_t>(y)];
        });
        rest = *least;
        order.erase(least);
      }
      Matching m;
      std::size_t repeats = 0;
      for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
        const auto pair = std::minmax(order[i], order[i + 1]);
        if (auto it = met.find(pair); it != met.end()) repeats += it->second;
        m.emplace_back(pair.first, pair.second);
      }
      if (repeats < best_repeats) {
        best = std::move(m);
        best_repeats = repeats;
        best_rest = rest;
      }
    }
    if (best_rest >= 0) ++rests[static_cast<std::size_t>(best_rest)];
    std::sort(best.begin(), best.end());
    for (const auto& pair : best) ++met[pair];
    out.push_back(std::move(best));
  }
  return out;
}

std::vector<int> partners(const Matching& matching, int nodes) {
  std::vector<int> p(static_cast<std::size_t>(std::max(nodes, 0)), -1);
  for (const auto& [a, b] : matching) {
    p[static_cast<std::size_t>(a)] = b;
    p[static_cast<std::size_t>(b)] = a;
  }
  return p;
}

}  // namespace gpuscale::collectives
