#include "phases/collectives/RoundRatios.hpp"

#include <algorithm>
#include <map>

#include "results/base/Statistics.hpp"

namespace gpuscale::results {

std::vector<double> round_ratios(const IsolationRecord& r) {
  // Each pair is judged against the other pairs of its round: with few nodes a slow node's own pair
  // would pull a median over every pair halfway towards it.
  std::map<int, std::vector<std::size_t>> per_round;
  for (std::size_t i = 0; i < r.matches.size(); ++i)
    if (r.matches[i].partner >= 0) per_round[r.matches[i].round].push_back(i);
  std::vector<double> ratios(r.matches.size(), 1.0);
  for (const auto& [round, members] : per_round)
    for (const std::size_t i : members) {
      const auto& m = r.matches[i];
      std::vector<double> sr, ar;
      for (const std::size_t j : members) {
        const auto& o = r.matches[j];
        if (o.node == m.node || o.node == m.partner) continue;
        if (o.sendrecv_gbps > 0) sr.push_back(o.sendrecv_gbps);
        if (o.allreduce_busbw_gbps > 0) ar.push_back(o.allreduce_busbw_gbps);
      }
      // With two nodes there is nothing to compare with; a figure measured on neither side says nothing.
      auto judge = [&ratios, i](double value, const std::vector<double>& others) {
        if (value > 0 && !others.empty()) ratios[i] = std::min(ratios[i], value / median(others));
      };
      judge(m.sendrecv_gbps, sr);
      judge(m.allreduce_busbw_gbps, ar);
    }
  return ratios;
}

}  // namespace gpuscale::results
