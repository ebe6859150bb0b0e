#pragma once
// Whether this node has NVIDIA GPUs, asked without CUDA: the evidence `--device auto` needs before it
// may take the CPU backend (BackendSelect.cpp). A node where NVML, the driver's device nodes or its
// /proc entries show GPUs that CUDA cannot use is a broken GPU node, not a node without GPUs.
// Test seam: GPUSCALE_TEST_DEVICE_ROOT=DIR reads DIR/dev and DIR/proc for /dev and /proc (a test
// mknods DIR/dev/nvidia0 there); NVML is asked as always.
#include <string>
#include <vector>

namespace gpuscale::harness {

struct NodeGpus {
  int nvml = 0;                           // GPUs NVML lists (0 where NVML is missing or lists none)
  std::vector<std::string> device_nodes;  // /dev/nvidiaN: character devices of NVIDIA's major (195)
  int driver = 0;                         // GPUs under /proc/driver/nvidia/gpus

  bool any() const { return nvml > 0 || !device_nodes.empty() || driver > 0; }
  // "NVML lists 1 GPU; /dev/nvidia0; the driver lists 1 GPU": what was found, "" for nothing.
  std::string describe() const;
};

// Local; never throws (what cannot be read counts as not found).
NodeGpus find_node_gpus() noexcept;

}  // namespace gpuscale::harness
