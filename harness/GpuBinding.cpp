#include "harness/GpuBinding.hpp"

namespace gpuscale::harness {

int pick_device(const std::vector<std::string>& node_keys, int local_rank, int visible) {
  if (visible <= 0) return -1;
  if (local_rank < 0 || static_cast<std::size_t>(local_rank) >= node_keys.size()) return local_rank % visible;
  int index = 0;
  for (int i = 0; i < local_rank; ++i)
    if (node_keys[static_cast<std::size_t>(i)] == node_keys[static_cast<std::size_t>(local_rank)]) ++index;
  return index % visible;
}

Capability leader_drives_node_gpus(int leader_visible_gpu_count, int local_size) {
  Capability c;
  if (leader_visible_gpu_count <= 0) {
    c.reason = "local rank 0 sees no GPU";
    return c;
  }
  if (leader_visible_gpu_count >= 2 || local_size <= 1) {
    c.possible = true;
    return c;
  }
  c.reason = "local rank 0 sees 1 GPU but its node runs " + std::to_string(local_size) +
             " ranks: each rank sees only its own GPU (srun --gpus-per-task, --gpu-bind or a per-rank "
             "CUDA_VISIBLE_DEVICES), so one process cannot drive the node's GPUs; launch with --gpus-per-node "
             "and --gpu-bind=none to run DP-style";
  return c;
}

}  // namespace gpuscale::harness
