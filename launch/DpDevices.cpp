// How many devices DP may drive from rank 0 (PlanFit.hpp): in the launch base, which train's running
// half links, apart from the plan's fit over the phase table.
#include <algorithm>

#include "harness/CudaBackend.hpp"
#include "launch/PlanFit.hpp"

namespace gpuscale::launch {

int dp_device_limit(bool cpu_backend, int local_size) {
  return cpu_backend ? std::max(2, local_size) : harness::cuda_visible_device_count();
}

}  // namespace gpuscale::launch
