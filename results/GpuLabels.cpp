#include "results/GpuLabels.hpp"

#include <map>
#include <set>

namespace gpuscale::results {

std::vector<std::string> gpu_labels(const std::vector<RankEnv>& ranks) {
  std::map<std::string, std::set<int>> nodes_of_host;
  for (const auto& e : ranks) nodes_of_host[e.host].insert(e.node);
  std::vector<std::string> labels;
  labels.reserve(ranks.size());
  for (const auto& e : ranks) {
    const bool shared = nodes_of_host[e.host].size() > 1;
    labels.push_back(e.host + (shared ? "/n" + std::to_string(e.node) : "") + "#" + std::to_string(e.local_rank));
  }
  return labels;
}

std::string gpu_identity(const RankEnv& rank) {
  if (!rank.gpu) return "";
  return rank.gpu->uuid.empty() ? rank.gpu->pci_bus_id : rank.gpu->uuid;
}

}  // namespace gpuscale::results
