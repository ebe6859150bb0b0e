// Linked where the CUDA backend is not built: the cuda backend cannot exist, so neither can its verifier.
#include "collectives/DataVerifier.hpp"
#include "harness/Error.hpp"

namespace gpuscale::collectives {

std::unique_ptr<DataVerifier> make_device_data_verifier() {
  throw harness::RuntimeError("the GPU data verifier needs the CUDA backend, which this gpuscale was built without");
}

}  // namespace gpuscale::collectives
