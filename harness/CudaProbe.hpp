#pragma once
// Describes this rank's GPU and the CUDA, cuBLAS, cuDNN and NCCL it runs with (local, no communication).
namespace gpuscale::results {
struct RankEnv;
}

namespace gpuscale::harness {

// Fills env.gpu, env.visible_gpu_count and the library versions for CUDA device `device`.
void probe_cuda_device(int device, results::RankEnv& env);

}  // namespace gpuscale::harness
