#pragma once
// Launchers of the device memory bandwidth kernels (MemoryKernels.cu). `stream` is a cudaStream_t;
// every launch is asynchronous on it and checked with cudaGetLastError. Defined where the CUDA
// backend is built; elsewhere they throw harness::UsageError (no cuda backend can exist there).
#include <cstddef>

namespace gpuscale::workloads::kernels {

// data[i] = a float that depends on i (never all zeros: memory is not timed on zeros).
void fill_index(float* data, std::size_t count, void* stream);
// STREAM's triad: a[i] = b[i] + scalar * c[i]. Reads 2 and writes 1 float per element.
void triad(float* a, const float* b, const float* c, float scalar, std::size_t count, void* stream);

}  // namespace gpuscale::workloads::kernels
