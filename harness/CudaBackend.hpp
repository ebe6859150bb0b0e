#pragma once
// The cuda backend: one GPU per rank, CUDA streams and events, NCCL. These entry points are defined
// by CudaBackend.cpp where the CUDA backend is built, and by NoCudaBackend.cpp elsewhere.
#include <memory>
#include <string>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

bool cuda_backend_built() noexcept;
// GPUs this process can see (CUDA_VISIBLE_DEVICES applies); 0 without a driver or without the build.
int cuda_visible_device_count() noexcept;
// The PCI bus ids of the GPUs this process can see, comma-joined ("" without any): tells which ranks
// of a node see the same GPUs.
std::string cuda_visible_devices_key() noexcept;
// Binds this process to `device` (cudaSetDevice) and creates its context. Every wait takes its
// deadline from its caller.
std::unique_ptr<Backend> make_cuda_backend(int device);

}  // namespace gpuscale::harness
