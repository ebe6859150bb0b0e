#pragma once
// Launchers of the layers' small CUDA kernels (DeviceKernels.cu). `stream` is a cudaStream_t; every
// launch is asynchronous on it and checked with cudaGetLastError. Element types: float32, float16,
// bfloat16 (others throw harness::UsageError).
#include <cstddef>
#include <cstdint>

#include "harness/DataType.hpp"

namespace gpuscale::workloads::kernels {

// data[i] = uniform_value(seed, i, scale) rounded to `type` (RandomValue.hpp).
void fill_uniform(void* data, harness::DataType type, std::size_t count, std::uint64_t seed, float scale, void* stream);
// dst[i] = src[i] (add = false) or dst[i] + src[i], converted through float, round to nearest even.
void convert(const void* src, harness::DataType src_type, void* dst, harness::DataType dst_type, std::size_t count,
             bool add, void* stream);
// One thread that spins for `seconds` of device time (the global timer), holding back what follows it
// on the stream.
void hold(double seconds, void* stream);
// Streaming multiprocessors of the current device (grids and cuBLASLt's SM count target are sized by it).
int current_device_sms();

}  // namespace gpuscale::workloads::kernels
