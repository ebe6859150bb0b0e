#pragma once
// Chooses this rank's backend and binds it to its GPU: its turn among the node's ranks that see the
// same GPUs, modulo the visible GPUs (pick_device), so `mpirun -np 8` with 8 visible GPUs,
// `srun --gpus-per-task=1` (one visible each) and `--gpu-bind=closest` (a socket's GPUs each) work.
#include <memory>
#include <string>
#include <string_view>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

class World;

enum class DeviceChoice { automatic, cuda, cpu };
DeviceChoice parse_device_choice(std::string_view text);  // "auto" | "cuda" | "cpu"; UsageError otherwise

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  bool fell_back = false;  // auto chose cpu because the node has no NVIDIA GPU
  int device = -1;         // CUDA device index, -1 on cpu
  // Why CUDA cannot use the GPUs this node has (CUDA's own error, what shows the GPUs, the likely
  // causes); "" otherwise. The backend is then the CPU's, for the env phase alone: the env check
  // cuda-unusable fails the run and stops the GPU phases.
  std::string cuda_unusable;
};

// Collective over the node unless choice is cpu (every rank must make the same choice).
// Where CUDA sees no GPU: if the node has NVIDIA GPUs (NodeGpus.hpp), cuda_unusable says why, for
// auto and cuda alike; otherwise auto falls back to the CPU backend and cuda throws RuntimeError.
// `deadline` bounds the node's exchange; the backend keeps no timeout (its waits take their callers'
// deadlines).
BackendSelection select_backend(DeviceChoice choice, const World& world, const Deadline& deadline);

}  // namespace gpuscale::harness
