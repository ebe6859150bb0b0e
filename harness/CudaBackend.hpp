#pragma once
// The cuda backend: one GPU per rank, CUDA streams and events, NCCL. These entry points are defined
// by CudaBackend.cpp where the CUDA backend is built, and by NoCudaBackend.cpp elsewhere.
#include <memory>
#include <string>

#include "harness/Backend.hpp"

namespace gpuscale::harness {

bool cuda_backend_built() noexcept;
// GPUs this process can see (CUDA_VISIBLE_DEVICES applies); 0 without a driver or without the build,
// and then, where `why_none` is given, CUDA's own error ("cudaGetDeviceCount: cudaErrorNoDevice (no
// CUDA-capable device is detected)") or why there is no CUDA.
int cuda_visible_device_count(std::string* why_none = nullptr) noexcept;
// The PCI bus ids of the GPUs this process can see, comma-joined ("" without any): tells which ranks
// of a node see the same GPUs.
std::string cuda_visible_devices_key() noexcept;
// Binds this process to `device` (cudaSetDevice) and creates its context. Every wait takes its
// deadline from its caller.
std::unique_ptr<Backend> make_cuda_backend(int device);

}  // namespace gpuscale::harness
