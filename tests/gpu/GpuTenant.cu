// A small foreign process for the mid-run tenancy test (tenancy_midrun_gpu.sh): it holds a little GPU
// memory (a 32 MiB buffer beside the CUDA context) and computes part of the time, a spin kernel on
// every SM for `busy` ms of each 100 ms, until it has run `seconds` or is killed.
//   gpu_tenant SECONDS [BUSY_PERCENT]
// Prints "ready PID" on stdout once its first kernel has run.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <cuda_runtime.h>

namespace {

__global__ void spin(unsigned long long ns, float* sink) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  float x = static_cast<float>(threadIdx.x);
  do {
    x = x * 1.0001f + 0.5f;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
  if (x == -1.0f) sink[0] = x;  // never true: keeps the loop from being removed
}

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "gpu_tenant: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0;
  const int busy_pct = argc > 2 ? std::atoi(argv[2]) : 30;
  if (!(seconds > 0) || busy_pct < 1 || busy_pct > 100) {
    std::fprintf(stderr, "usage: gpu_tenant SECONDS [BUSY_PERCENT 1..100]\n");
    return 2;
  }
  float* buffer = nullptr;
  cudaDeviceProp prop{};
  if (!ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") ||
      !ok(cudaMalloc(&buffer, 32u << 20), "cudaMalloc") || !ok(cudaMemset(buffer, 0, 32u << 20), "cudaMemset"))
    return 1;
  const auto period = std::chrono::milliseconds(100);
  const unsigned long long busy_ns = 1000000ull * 100 * static_cast<unsigned>(busy_pct) / 100;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  bool announced = false;
  while (std::chrono::steady_clock::now() < end) {
    const auto next = std::chrono::steady_clock::now() + period;
    spin<<<prop.multiProcessorCount, 128>>>(busy_ns, buffer);
    if (!ok(cudaGetLastError(), "launch") || !ok(cudaDeviceSynchronize(), "kernel")) return 1;
    if (!announced) {
      std::printf("ready %d\n", static_cast<int>(getpid()));
      std::fflush(stdout);
      announced = true;
    }
    std::this_thread::sleep_until(next);
  }
  cudaFree(buffer);
  return 0;
}
