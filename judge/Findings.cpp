#include "judge/Findings.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <utility>

namespace gpuscale::judge {

using results::Check;
using results::RankEnv;
using results::Severity;

namespace {

// Keeps `into` sorted and unique; linear in both sizes, so merging many small findings stays cheap.
template <class T>
void merge_sorted(std::vector<T>& into, std::vector<T> from) {
  if (!std::is_sorted(into.begin(), into.end())) {
    std::sort(into.begin(), into.end());
    into.erase(std::unique(into.begin(), into.end()), into.end());
  }
  if (from.empty()) return;
  std::sort(from.begin(), from.end());
  std::vector<T> merged;
  merged.reserve(into.size() + from.size());
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(merged));
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
  into = std::move(merged);
}

void add_details(std::vector<std::string>& into, std::vector<std::string>&& from) {
  for (auto& d : from) {
    if (into.size() >= kMaxFindingDetails) return;
    into.push_back(std::move(d));
  }
}

void fill_nodes(Check& c, const std::vector<RankEnv>& ranks) {
  std::vector<int> nodes;
  for (int r : c.ranks)
    if (r >= 0 && static_cast<std::size_t>(r) < ranks.size()) nodes.push_back(ranks[r].node);
  merge_sorted(c.nodes, nodes);
}

}  // namespace

void merge_finding(Check& into, Check&& c) {
  if (into.details.empty()) into.details.push_back(into.message);
  if (c.details.empty()) c.details.push_back(std::move(c.message));
  add_details(into.details, std::move(c.details));
  into.count += c.count;
  into.blocks_gpu_work = std::max(into.blocks_gpu_work, c.blocks_gpu_work);
  merge_sorted(into.ranks, std::move(c.ranks));
  merge_sorted(into.nodes, std::move(c.nodes));
  merge_sorted(into.pairs, std::move(c.pairs));
}

std::vector<Check> aggregate_findings(std::vector<Check> checks, const std::vector<RankEnv>& ranks) {
  std::vector<Check> out;
  std::map<std::pair<std::string, Severity>, std::size_t> index;  // (id, severity) -> position in out
  for (auto& c : checks) {
    fill_nodes(c, ranks);
    const auto [it, first] = index.emplace(std::make_pair(c.id, c.severity), out.size());
    if (first) {
      out.push_back(std::move(c));
      continue;
    }
    merge_finding(out[it->second], std::move(c));
  }
  return out;
}

}  // namespace gpuscale::judge
