#include "harness/BackendSelect.hpp"

#include <cstdlib>

#include "harness/CpuBackend.hpp"
#include "harness/CudaBackend.hpp"
#include "harness/Error.hpp"
#include "harness/GpuBinding.hpp"
#include "harness/NodeGpus.hpp"
#include "harness/World.hpp"

namespace gpuscale::harness {
namespace {

// CUDA's error, what shows the GPUs, and where to look.
std::string unusable_reason(const std::string& cuda_error, const NodeGpus& gpus) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::string causes =
      visible ? "CUDA_VISIBLE_DEVICES=" + std::string(visible) + " naming GPUs that are not there, " : std::string();
  causes += cuda_backend_built() ? "a driver older than the CUDA runtime, the job's GPU request (--gpus, cgroup "
                                   "devices), a GPU fallen off the bus (dmesg: XID)"
                                 : "a build without CUDA: rebuild with the CUDA toolkit, NCCL and cuDNN";
  return "CUDA sees no GPU (" + cuda_error + ") but this node has NVIDIA GPUs (" + gpus.describe() +
         "); likely causes: " + causes;
}

}  // namespace

DeviceChoice parse_device_choice(std::string_view text) {
  if (text == "auto") return DeviceChoice::automatic;
  if (text == "cuda" || text == "gpu") return DeviceChoice::cuda;
  if (text == "cpu") return DeviceChoice::cpu;
  throw UsageError("--device must be auto, cuda or cpu, not '" + std::string(text) + "'");
}

BackendSelection select_backend(DeviceChoice choice, const World& world, const Deadline& deadline) {
  BackendSelection s;
  if (choice == DeviceChoice::cpu) {
    s.backend = make_cpu_backend();
    return s;
  }
  std::string cuda_error;
  const int visible = cuda_visible_device_count(&cuda_error);
  // Which of the node's ranks see the same GPUs: each takes its turn among those (GpuBinding.hpp).
  const auto keys = world.node_all_gather(cuda_visible_devices_key(), deadline);
  if (visible == 0) {
    // GPUs that CUDA cannot use are the fault to report, never a reason to run on the CPU and pass.
    const NodeGpus gpus = find_node_gpus();
    if (gpus.any()) {
      s.backend = make_cpu_backend();
      s.cuda_unusable = unusable_reason(cuda_error, gpus);
      return s;
    }
    if (choice == DeviceChoice::cuda) {
      if (!cuda_backend_built()) make_cuda_backend(0);  // throws, saying so
      throw RuntimeError(error_location() + " --device cuda but this node has no NVIDIA GPU (" + cuda_error +
                         "; no NVML GPU, no /dev/nvidiaN, nothing in /proc/driver/nvidia/gpus)");
    }
    s.backend = make_cpu_backend();
    s.fell_back = true;
    return s;
  }
  s.device = pick_device(keys, world.local_rank(), visible);
  s.backend = make_cuda_backend(s.device);
  return s;
}

}  // namespace gpuscale::harness
