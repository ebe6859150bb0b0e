#pragma once
// What the CUDA runtime states about a device at once: the identity that CudaBackend::probe gives
// every phase (local, no communication). The env phase's fuller look (peers, library versions, NVML)
// is probes/CudaProbe.hpp. CUDA builds only.
#include <string>

namespace gpuscale::results {
struct RankEnv;
}

namespace gpuscale::harness {

// Sets env.backend to "cuda", env.visible_gpu_count and env.gpu's identity for CUDA device `device`:
// index, name, UUID, PCI bus, compute capability, SMs, memory, NUMA node.
void describe_cuda_device(int device, results::RankEnv& env);

// CUDA device `device`'s PCI bus id, as results::normalize_pci_bus_id writes it.
std::string cuda_pci_bus_id(int device);

}  // namespace gpuscale::harness
