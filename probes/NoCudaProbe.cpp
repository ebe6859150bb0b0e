// Builds without CUDA: no rank has a GPU, so there is nothing beyond the backend's probe to add.
#include "probes/CudaProbe.hpp"

namespace gpuscale::probes {

void probe_cuda_device(results::RankEnv&) {}

}  // namespace gpuscale::probes
