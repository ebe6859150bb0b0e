#include "results/world/Emulation.hpp"

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

std::string emulation_text(const Emulation& e, int node_count) {
  std::string text = std::to_string(node_count) + " emulated node" + (node_count == 1 ? "" : "s") + " of " +
                     std::to_string(e.ranks_per_node) + " rank" + (e.ranks_per_node == 1 ? "" : "s") + " (" +
                     kRanksPerNodeVariable + "=" + std::to_string(e.ranks_per_node) + ")";
  if (e.shared_gpu)
    text += ", sharing GPUs (" + std::string(kShareGpuVariable) +
            "=1): speed is not judged, correctness is";
  return text;
}

bool shares_gpu_across_nodes(const RankEnv& r) {
  const auto it = r.variables.find(kShareGpuVariable);
  return it != r.variables.end() && it->second == "1";
}

GPUSCALE_JSON_FROM_FIELDS(Emulation)

}  // namespace gpuscale::results
