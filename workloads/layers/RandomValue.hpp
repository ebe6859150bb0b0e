#pragma once
// The synthetic data of every backend: value i of a tensor filled with seed s is a pure function of
// (s, i), computed alike on the host and in CUDA kernels, so cpu and cuda runs see the same inputs.
#include <cstdint>

#if defined(__CUDACC__)
#define GPUSCALE_HOST_DEVICE __host__ __device__
#else
#define GPUSCALE_HOST_DEVICE
#endif

namespace gpuscale::workloads {

// splitmix64's finaliser: every input bit affects every output bit.
GPUSCALE_HOST_DEVICE inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// Uniform in [-scale, scale): 24 random bits, so the unscaled value is exact in float.
GPUSCALE_HOST_DEVICE inline float uniform_value(std::uint64_t seed, std::uint64_t index, float scale) {
  const std::uint64_t h = mix64(mix64(seed + 0x9e3779b97f4a7c15ull) ^ index);
  const float unit = static_cast<float>(static_cast<std::uint32_t>(h >> 40)) * (1.0f / 8388608.0f) - 1.0f;
  return unit * scale;
}

}  // namespace gpuscale::workloads
