#pragma once
// Which GPU a rank drives, and whether one process can drive a whole node (DP-style). Pure and
// local: the callers pass what this rank and its node see.
#include <string>
#include <vector>

namespace gpuscale::harness {

struct Capability {
  bool possible = false;
  std::string reason;  // why not, when !possible; names the launch that would allow it
};

// The CUDA device a rank drives: its index among the node's ranks that see the same set of GPUs,
// modulo the visible count. `node_keys[i]` identifies what node-local rank i sees (its visible GPUs'
// PCI bus ids, joined). Equals local rank % visible where every rank sees all GPUs, 0 where each
// sees one, and stays distinct where Slurm shows each socket's ranks that socket's GPUs
// (--gpu-bind=closest with ranks alternating between sockets). Ranks past the set's GPUs share
// one, which the duplicate-gpu check reports.
int pick_device(const std::vector<std::string>& node_keys, int local_rank, int visible);

// DP-style needs one process (local rank 0) that drives several GPUs of its node, over as many as it
// sees. Possible where that rank sees two or more, or its node runs one rank (DP over one GPU); not
// where each rank sees only its own GPU (srun --gpus-per-task=1, --gpu-bind, a per-rank
// CUDA_VISIBLE_DEVICES). The train phase's one rule for whether DP runs.
Capability leader_drives_node_gpus(int leader_visible_gpu_count, int local_size);

}  // namespace gpuscale::harness
