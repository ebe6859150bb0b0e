#pragma once
// The test-only layouts that let multi-node and multi-GPU code run on one machine: ranks grouped into
// emulated nodes (GPUSCALE_TEST_RANKS_PER_NODE) and, on top of that, ranks of different emulated nodes
// sharing one GPU (GPUSCALE_TEST_SHARE_GPU). A run states its emulation once (RunReport::emulation);
// on a shared GPU every rank's figures are shared with the others, so speed is not judged there.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/Check.hpp"
#include "results/base/RecordFields.hpp"
#include "results/world/RankEnv.hpp"

namespace gpuscale::results {

inline constexpr char kRanksPerNodeVariable[] = "GPUSCALE_TEST_RANKS_PER_NODE";
inline constexpr char kShareGpuVariable[] = "GPUSCALE_TEST_SHARE_GPU";
// NCCL_HOSTID that the shared-GPU mode gives each rank: this prefix and its emulated node's index.
inline constexpr char kEmulatedHostPrefix[] = "gpuscale-emulated-node-";

struct Emulation {
  int ranks_per_node = 0;   // ranks in each emulated node
  bool shared_gpu = false;  // ranks of different emulated nodes drive the same GPUs
};

// "4 emulated nodes of 1 rank (GPUSCALE_TEST_RANKS_PER_NODE=1), sharing GPUs (GPUSCALE_TEST_SHARE_GPU=1):
// speed is not judged", the one sentence every output uses.
std::string emulation_text(const Emulation& e, int node_count);

// Whether this rank ran in the shared-GPU mode, from the variables its env record keeps.
bool shares_gpu_across_nodes(const RankEnv& r);

constexpr auto json_fields(const Emulation*) {
  return fields(field("ranks_per_node", &Emulation::ranks_per_node), field("shared_gpu", &Emulation::shared_gpu));
}

void to_json(nlohmann::json& j, const Emulation& e);
void from_json(const nlohmann::json& j, Emulation& e);

}  // namespace gpuscale::results
