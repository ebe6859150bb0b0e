#include "collectives/Bisection.hpp"

#include <algorithm>

namespace gpuscale::collectives {

BisectionOutcome bisect(int nodes, double threshold, const HalvesMeasure& measure) {
  BisectionOutcome out;
  if (nodes < kBisectionMinNodes) {
    out.note = "bisection needs at least " + std::to_string(kBisectionMinNodes) + " nodes";
    return out;
  }
  std::vector<int> suspects(static_cast<std::size_t>(nodes));
  for (int i = 0; i < nodes; ++i) suspects[static_cast<std::size_t>(i)] = i;
  std::vector<int> cleared;
  while (suspects.size() > 1) {
    const auto middle = suspects.begin() + static_cast<std::ptrdiff_t>(suspects.size() / 2);
    std::vector<int> a(suspects.begin(), middle), b(middle, suspects.end());
    std::vector<int> group_a = a, group_b = b;
    // A lone node needs a partner to cross a link: a cleared node, a different one for each half.
    std::size_t next_reference = 0;
    for (auto* g : {&group_a, &group_b})
      if (g->size() == 1) {
        if (next_reference >= cleared.size()) {
          out.note = "no cleared node left to pair a lone node with";
          return out;
        }
        g->push_back(cleared[next_reference++]);
      }
    const auto [a_gbps, b_gbps] = measure(group_a, group_b);
    out.steps.push_back({group_a, group_b, a_gbps, b_gbps});
    if (a_gbps < threshold * b_gbps) {
      cleared.insert(cleared.end(), b.begin(), b.end());
      suspects = std::move(a);
    } else if (b_gbps < threshold * a_gbps) {
      cleared.insert(cleared.end(), a.begin(), a.end());
      suspects = std::move(b);
    } else {
      out.note = "neither half was slower than the other beyond noise";
      return out;
    }
  }
  out.node = suspects.front();
  return out;
}

}  // namespace gpuscale::collectives
