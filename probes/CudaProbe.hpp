#pragma once
// The env phase's look at this rank's GPU beyond its identity (Backend::probe, harness/CudaDevice.hpp):
// the CUDA devices it can reach as peers, the CUDA, cuBLAS, cuDNN and NCCL versions it runs with,
// the driver, and NVML's clocks, power, ECC, configuration, PCIe and NVLinks (local, no communication).
namespace gpuscale::results {
struct RankEnv;
}

namespace gpuscale::probes {

// Adds the above to env after the backend's probe has set env.gpu; nothing without a GPU (the cpu
// backend, and every build without CUDA: NoCudaProbe.cpp).
void probe_cuda_device(results::RankEnv& env);

}  // namespace gpuscale::probes
