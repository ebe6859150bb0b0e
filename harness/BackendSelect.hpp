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
  bool fell_back = false;  // auto chose cpu because no GPU was visible
  int device = -1;         // CUDA device index, -1 on cpu
};

// Collective over the node unless choice is cpu (every rank must make the same choice).
// --device cuda without a visible GPU throws RuntimeError. `deadline` bounds the node's exchange; the
// backend keeps no timeout (its waits take their callers' deadlines).
BackendSelection select_backend(DeviceChoice choice, const World& world, const Deadline& deadline);

}  // namespace gpuscale::harness
