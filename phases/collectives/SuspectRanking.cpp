#include "phases/collectives/SuspectRanking.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "phases/collectives/RoundRatios.hpp"
#include "results/base/Format.hpp"
#include "results/base/Outlier.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::judge {

using results::fixed;
using results::IsolationRecord;
using results::kOutlierMinGroup;
using results::kOutlierSigmas;
using results::median;
using results::percent;
using results::robust_sigma;
using results::round_ratios;
using results::Suspect;

namespace {

std::string host_of(const IsolationRecord& r, int node) {
  return node >= 0 && node < static_cast<int>(r.node_hosts.size()) ? r.node_hosts[static_cast<std::size_t>(node)]
                                                                    : "";
}

// Three significant digits: 478 GB/s on a GPU, 0.04 on the cpu backend.
std::string gbps(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
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

std::vector<Suspect> named_by_rounds(const IsolationRecord& r) {
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
                 percent(r.threshold, 0) + " of the median inter-node bandwidth of the round's other pairs (median " +
                 percent(median(n.failed_ratios), 0) + " in those)" + partners_elsewhere(r, ratios, best);
    out.push_back(std::move(s));
    named.insert(best);
  }
  return out;
}

// A node-local outlier adds its evidence to the node's entry, or joins the list with it alone.
void add_node_local(const IsolationRecord& r, std::vector<Suspect>& out) {
  for (const auto& o : node_local_outliers(r)) {
    const std::string evidence =
        "node-local allreduce " + gbps(o.busbw_gbps) + " GB/s, " + fixed(o.busbw_gbps / o.median_gbps * 100, 0) +
        "% of the nodes' median " + gbps(o.median_gbps) + " GB/s (" +
        (std::isfinite(o.sigmas) ? fixed(o.sigmas, 1) + " robust sigmas below it" : "the other nodes all equal") + ")";
    auto it = std::find_if(out.begin(), out.end(), [&](const Suspect& s) { return s.node == o.node; });
    if (it == out.end()) {
      Suspect s;
      s.node = o.node;
      s.host = host_of(r, o.node);
      s.evidence = evidence;
      it = out.insert(out.end(), std::move(s));
    } else {
      it->evidence += "; " + evidence;
    }
    it->by_node_local = true;
  }
}

void add_bisection(const IsolationRecord& r, std::vector<Suspect>& out) {
  if (r.bisection_node < 0) return;
  const std::string steps = "bisection kept its half at each of " + std::to_string(r.bisection.size()) + " steps";
  auto it = std::find_if(out.begin(), out.end(), [&](const Suspect& s) { return s.node == r.bisection_node; });
  // Bisection times each half once, so noise can steer it; where the rounds cleared the node (it
  // passed every round it played, or it played enough to be named and was not), the rounds stand
  // and the bisection only records. A node that failed the few rounds a tight budget let it play
  // was not cleared: the bisection names it.
  const auto t = tally(r, round_ratios(r), {});
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

}  // namespace

std::vector<NodeLocalOutlier> node_local_outliers(const IsolationRecord& r) {
  std::vector<double> values;
  for (const auto& n : r.node_local)
    if (n.busbw_gbps > 0) values.push_back(n.busbw_gbps);
  std::vector<NodeLocalOutlier> out;
  if (values.size() < kOutlierMinGroup) return out;
  const double centre = median(values), sigma = robust_sigma(values);
  for (const auto& n : r.node_local) {
    const double excess = centre - n.busbw_gbps;
    if (!(n.busbw_gbps > 0) || !(n.busbw_gbps < r.threshold * centre)) continue;
    const double sigmas = sigma > 0 ? excess / sigma : std::numeric_limits<double>::infinity();
    if (sigmas > kOutlierSigmas) out.push_back({n.node, n.busbw_gbps, centre, sigmas});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.busbw_gbps < b.busbw_gbps; });
  return out;
}

std::vector<Suspect> rank_suspects(const IsolationRecord& r) {
  auto out = named_by_rounds(r);
  add_node_local(r, out);
  add_bisection(r, out);
  return out;
}

bool measured_anything(const IsolationRecord& r) {
  const bool node_local =
      std::any_of(r.node_local.begin(), r.node_local.end(), [](const auto& n) { return n.busbw_gbps > 0; });
  const bool rounds = std::any_of(r.matches.begin(), r.matches.end(),
                                  [](const auto& m) { return m.sendrecv_gbps > 0 || m.allreduce_busbw_gbps > 0; });
  return node_local || rounds || !r.bisection.empty();
}

results::SuspectList judge_suspects(const IsolationRecord& iso, const results::SuspectList& saved) {
  if (!measured_anything(iso)) return {saved.ranked, !saved.ranked.empty()};
  return {rank_suspects(iso), false};
}

}  // namespace gpuscale::judge
