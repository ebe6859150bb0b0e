// Linked where the CUDA backend is not built: no GPU is ever visible.
#include "harness/CudaBackend.hpp"
#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {
constexpr const char* kBuiltWithoutCuda =
    "this gpuscale was built without the CUDA backend (GPUSCALE_WITH_CUDA=OFF or no CUDA toolkit)";
}  // namespace

bool cuda_backend_built() noexcept { return false; }
int cuda_visible_device_count(std::string* why_none) noexcept {
  if (why_none) *why_none = kBuiltWithoutCuda;
  return 0;
}
std::string cuda_visible_devices_key() noexcept { return ""; }
std::unique_ptr<Backend> make_cuda_backend(int) { throw UsageError(kBuiltWithoutCuda); }

}  // namespace gpuscale::harness

#include "harness/LocalGroup.hpp"

namespace gpuscale::harness {

std::vector<std::unique_ptr<Communicator>> make_nccl_local_group(const std::vector<int>&) {
  throw UsageError("this gpuscale was built without the CUDA backend: no NCCL groups");
}

}  // namespace gpuscale::harness
