#include "results/models/GpuLabels.hpp"

#include <set>

namespace gpuscale::results {

std::map<int, std::string> node_names(const std::vector<RankEnv>& ranks) {
  std::map<std::string, std::set<int>> nodes_of_host;
  for (const auto& e : ranks) nodes_of_host[e.host].insert(e.node);
  std::map<int, std::string> names;
  for (const auto& e : ranks)
    names[e.node] = e.host + (nodes_of_host[e.host].size() > 1 ? "/n" + std::to_string(e.node) : "");
  return names;
}

std::vector<std::string> gpu_labels(const std::vector<RankEnv>& ranks) {
  const auto nodes = node_names(ranks);
  std::vector<std::string> labels;
  labels.reserve(ranks.size());
  for (const auto& e : ranks) labels.push_back(nodes.at(e.node) + "#" + std::to_string(e.local_rank));
  return labels;
}

std::string node_name(const std::map<int, std::string>& names, int node) {
  const auto it = names.find(node);
  return it == names.end() ? "" : it->second;
}

std::vector<std::string> rank_node_names(const std::vector<RankEnv>& ranks) {
  const auto nodes = node_names(ranks);
  std::vector<std::string> names;
  for (const auto& e : ranks) {
    if (e.rank < 0) continue;
    if (static_cast<std::size_t>(e.rank) >= names.size()) names.resize(static_cast<std::size_t>(e.rank) + 1);
    names[static_cast<std::size_t>(e.rank)] = nodes.at(e.node);
  }
  return names;
}

std::string gpu_identity(const RankEnv& rank) {
  if (!rank.gpu) return "";
  return rank.gpu->uuid.empty() ? rank.gpu->pci_bus_id : rank.gpu->uuid;
}

}  // namespace gpuscale::results
