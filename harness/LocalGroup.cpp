#include "harness/LocalGroup.hpp"

#include "harness/Error.hpp"

namespace gpuscale::harness {

std::vector<std::unique_ptr<Communicator>> create_local_group(std::span<Backend* const> devices) {
  if (devices.empty()) throw UsageError("a local communicator group needs at least one device");
  if (devices.front()->kind() == BackendKind::cpu) return make_in_process_group(static_cast<int>(devices.size()));
  std::vector<int> ids;
  for (Backend* d : devices) ids.push_back(d->device_index());
  return make_nccl_local_group(ids);
}

}  // namespace gpuscale::harness
