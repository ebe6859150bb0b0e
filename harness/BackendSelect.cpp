#include "harness/BackendSelect.hpp"

#include "harness/CpuBackend.hpp"
#include "harness/CudaBackend.hpp"
#include "harness/Error.hpp"
#include "harness/GpuBinding.hpp"
#include "harness/World.hpp"

namespace gpuscale::harness {

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
  if (choice == DeviceChoice::cuda && !cuda_backend_built()) make_cuda_backend(0);  // throws
  const int visible = cuda_visible_device_count();
  // Which of the node's ranks see the same GPUs: each takes its turn among those (GpuBinding.hpp).
  const auto keys = world.node_all_gather(cuda_visible_devices_key(), deadline);
  if (visible == 0) {
    if (choice == DeviceChoice::cuda)
      throw RuntimeError(error_location() + " --device cuda but no GPU is visible to this rank "
                                            "(check the driver, CUDA_VISIBLE_DEVICES and the job's GPU request)");
    s.backend = make_cpu_backend();
    s.fell_back = true;
    return s;
  }
  s.device = pick_device(keys, world.local_rank(), visible);
  s.backend = make_cuda_backend(s.device);
  return s;
}

}  // namespace gpuscale::harness
