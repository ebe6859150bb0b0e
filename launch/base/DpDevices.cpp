#include "launch/base/DpDevices.hpp"

#include <algorithm>

#include "harness/CudaBackend.hpp"

namespace gpuscale::launch {

int dp_device_limit(bool cpu_backend, int local_size) {
  return cpu_backend ? std::max(2, local_size) : harness::cuda_visible_device_count();
}

}  // namespace gpuscale::launch
