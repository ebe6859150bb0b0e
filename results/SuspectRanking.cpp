#include "results/SuspectRanking.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "results/Format.hpp"
#include "results/Statistics.hpp"

namespace gpuscale::results {
namespace {

std::string host_of(const IsolationRecord& r, int node) {
  return node >= 0 && node < static_cast<int>(r.node_hosts.size()) ? r.node_hosts[static_cast<std::size_t>(node)]
                                                                    : "";
}

struct Tally {
  int failed = 0, counted = 0;
  std::vector<double> failed_ratios;
};

// Each node's rounds, leaving out those played with an already named node.
std::map<int, Tally> tally(const IsolationRecord& r, const std::vector<double>& ratios, const std::set<int>& named) {
  std::map<int, Tally> t;
  for (std::size_t i = 0; i < r.matches.size(); ++i) {
    const auto& m = r.matches[i];
    if (m.partner < 0 || named.count(m.node) || named.count(m.partner)) continue;
    auto& n = t[m.node];
    ++n.counted;
    if (ratios[i] < r.threshold) {
      ++n.failed;
      n.failed_ratios.push_back(ratios[i]);
    }
  }
  return t;
}

// "its partners passed 9 of 10 of their other rounds": the partners' rounds without this node.
std::string partners_elsewhere(const IsolationRecord& r, const std::vector<double>& ratios, int node) {
  std::set<int> partners;
  for (const auto& m : r.matches)
    if (m.node == node && m.partner >= 0) partners.insert(m.partner);
  int passed = 0, played = 0;
  for (std::size_t i = 0; i < r.matches.size(); ++i) {
    const auto& m = r.matches[i];
    if (!partners.count(m.node) || m.partner < 0 || m.partner == node) continue;
    ++played;
    passed += ratios[i] >= r.threshold;
  }
  if (played == 0) return "";
  return "; its partners passed " + std::to_string(passed) + " of " + std::to_string(played) +
         " of their rounds with other nodes";
}

}  // namespace

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
        sr.push_back(o.sendrecv_gbps);
        ar.push_back(o.allreduce_busbw_gbps);
      }
      if (sr.empty()) continue;  // two nodes: nothing to compare with
      const double sr_median = median(sr), ar_median = median(ar);
      const double sr_ratio = sr_median > 0 ? m.sendrecv_gbps / sr_median : 1.0;
      const double ar_ratio = ar_median > 0 ? m.allreduce_busbw_gbps / ar_median : 1.0;
      ratios[i] = std::max(sr_ratio, ar_ratio);
    }
  return ratios;
}

std::vector<Suspect> rank_suspects(const IsolationRecord& r) {
  const auto ratios = round_ratios(r);
  std::vector<Suspect> out;
  std::set<int> named;
  for (;;) {
    const auto t = tally(r, ratios, named);
    int best = -1;
    double best_share = 0;
    for (const auto& [node, n] : t) {
      const double share = n.counted ? static_cast<double>(n.failed) / n.counted : 0;
      if (n.failed >= kSuspectMinFailedRounds && share > kSuspectRoundShare && share > best_share) {
        best = node;
        best_share = share;
      }
    }
    if (best < 0) break;
    const auto& n = t.at(best);
    Suspect s;
    s.node = best;
    s.host = host_of(r, best);
    s.score = best_share;
    s.rounds_failed = n.failed;
    s.rounds_counted = n.counted;
    s.evidence = std::to_string(n.failed) + " of " + std::to_string(n.counted) + " rounds under " +
                 fixed(r.threshold * 100, 0) + "% of the median inter-node bandwidth of the round's other pairs (median " +
                 fixed(median(n.failed_ratios) * 100, 0) + "% in those)" + partners_elsewhere(r, ratios, best);
    out.push_back(std::move(s));
    named.insert(best);
  }
  if (r.bisection_node >= 0) {
    const std::string steps = "bisection kept its half at each of " + std::to_string(r.bisection.size()) + " steps";
    auto it = std::find_if(out.begin(), out.end(), [&](const Suspect& s) { return s.node == r.bisection_node; });
    // Bisection times each half once, so noise can steer it; where the rounds cleared the node (it
    // passed every round it played, or it played enough to be named and was not), the rounds stand
    // and the bisection only records. A node that failed the few rounds a tight budget let it play
    // was not cleared: the bisection names it.
    const auto t = tally(r, ratios, {});
    const auto counted = t.find(r.bisection_node);
    const bool rounds_cleared = counted != t.end() && counted->second.counted > 0 &&
                                (counted->second.failed == 0 || counted->second.counted >= kSuspectMinFailedRounds);
    if (it == out.end() && !rounds_cleared) {
      Suspect s;
      s.node = r.bisection_node;
      s.host = host_of(r, s.node);
      s.evidence = steps;
      s.by_bisection = true;
      out.push_back(std::move(s));
    } else if (it != out.end()) {
      it->by_bisection = true;
      it->evidence += "; " + steps;
    }
  }
  return out;
}

}  // namespace gpuscale::results
