// Linked where the CUDA backend is not built: the cuda backend cannot exist, so neither can its check.
#include "collectives/DataCheck.hpp"
#include "harness/Error.hpp"

namespace gpuscale::collectives {

std::unique_ptr<DataCheck> make_device_data_check() {
  throw harness::RuntimeError("the GPU data check needs the CUDA backend, which this gpuscale was built without");
}

}  // namespace gpuscale::collectives
