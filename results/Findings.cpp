#include "results/Findings.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "results/CpuList.hpp"

namespace gpuscale::results {
namespace {

template <class T>
void merge_sorted(std::vector<T>& into, const std::vector<T>& from) {
  into.insert(into.end(), from.begin(), from.end());
  std::sort(into.begin(), into.end());
  into.erase(std::unique(into.begin(), into.end()), into.end());
}

void fill_nodes(Check& c, const std::vector<RankEnv>& ranks) {
  std::vector<int> nodes;
  for (int r : c.ranks)
    if (r >= 0 && static_cast<std::size_t>(r) < ranks.size()) nodes.push_back(ranks[r].node);
  merge_sorted(c.nodes, nodes);
}

}  // namespace

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
    Check& into = out[it->second];
    if (into.details.empty()) into.details.push_back(into.message);
    if (c.details.empty()) into.details.push_back(c.message);
    into.details.insert(into.details.end(), c.details.begin(), c.details.end());
    into.count += c.count;
    into.blocks_gpu_work = std::max(into.blocks_gpu_work, c.blocks_gpu_work);
    merge_sorted(into.ranks, c.ranks);
    merge_sorted(into.nodes, c.nodes);
    merge_sorted(into.pairs, c.pairs);
  }
  return out;
}

std::string finding_name(const Check& c) {
  return c.count > 1 ? c.id + " x" + std::to_string(c.count) : c.id;
}

std::string finding_scope(const Check& c) {
  std::string scope;
  auto add = [&scope](const std::string& part) { scope += (scope.empty() ? "" : " | ") + part; };
  if (!c.ranks.empty()) add("ranks " + format_cpulist(c.ranks));
  if (!c.nodes.empty()) add((c.nodes.size() == 1 ? "node " : "nodes ") + format_cpulist(c.nodes));
  if (!c.pairs.empty()) add(std::to_string(c.pairs.size()) + (c.pairs.size() == 1 ? " pair" : " pairs"));
  return scope;
}

}  // namespace gpuscale::results
