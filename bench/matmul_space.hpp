// matmul_space: cuBLASLt's configuration space for one GEMM, beyond what its heuristic returns.
// For each algorithm id cuBLASLt has for the types (cublasLtMatmulAlgoGetIds), every tile x stages x
// cluster shape x CTA swizzling it advertises (cublasLtMatmulAlgoCapGetAttribute), split-K off, kept
// where cublasLtMatmulAlgoCheck accepts it within the workspace cap. Used by matmul_sustained --space.
// Header-only, bench-local: it calls cuBLASLt directly, outside the project's layers.
#pragma once

#include <cublasLt.h>

#include <cstdint>
#include <vector>

namespace matmul_space {

struct Config {
  cublasLtMatmulAlgo_t algo;
  std::size_t workspace;
};

// The uint32 array a capability holds (tile ids, stages ids); empty where the algorithm has none.
inline std::vector<std::uint32_t> cap_ids(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoCapAttributes_t which) {
  std::size_t bytes = 0;
  if (cublasLtMatmulAlgoCapGetAttribute(&algo, which, nullptr, 0, &bytes) != CUBLAS_STATUS_SUCCESS || bytes == 0)
    return {};
  std::vector<std::uint32_t> ids(bytes / sizeof(std::uint32_t));
  std::size_t written = 0;
  if (cublasLtMatmulAlgoCapGetAttribute(&algo, which, ids.data(), bytes, &written) != CUBLAS_STATUS_SUCCESS) return {};
  ids.resize(written / sizeof(std::uint32_t));
  return ids;
}

inline std::int32_t cap_int(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoCapAttributes_t which) {
  std::int32_t value = 0;
  std::size_t written = 0;
  if (cublasLtMatmulAlgoCapGetAttribute(&algo, which, &value, sizeof value, &written) != CUBLAS_STATUS_SUCCESS) return 0;
  return value;
}

struct Problem {
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t a, b, c;
  cublasComputeType_t compute;
  cudaDataType_t ab, cd;
  std::size_t workspace_cap;
};

// Every accepted configuration; `ids_seen` gets the number of algorithm ids cuBLASLt listed.
inline std::vector<Config> enumerate(const Problem& p, int& ids_seen) {
  // Cluster shapes tried: automatic, 1x1, 2x1, 1x2, 2x2, 4x1, 1x4 (cublasLtClusterShape_t).
  const std::uint16_t clusters[] = {CUBLASLT_CLUSTER_SHAPE_AUTO, CUBLASLT_CLUSTER_SHAPE_1x1x1,
                                    CUBLASLT_CLUSTER_SHAPE_2x1x1, CUBLASLT_CLUSTER_SHAPE_1x2x1,
                                    CUBLASLT_CLUSTER_SHAPE_2x2x1, CUBLASLT_CLUSTER_SHAPE_4x1x1,
                                    CUBLASLT_CLUSTER_SHAPE_1x4x1};
  std::vector<int> ids(512);
  ids_seen = 0;
  if (cublasLtMatmulAlgoGetIds(p.lt, p.compute, CUDA_R_32F, p.ab, p.ab, p.cd, p.cd, static_cast<int>(ids.size()),
                               ids.data(), &ids_seen) != CUBLAS_STATUS_SUCCESS)
    return {};
  std::vector<Config> out;
  for (int i = 0; i < ids_seen; ++i) {
    cublasLtMatmulAlgo_t base;
    if (cublasLtMatmulAlgoInit(p.lt, p.compute, CUDA_R_32F, p.ab, p.ab, p.cd, p.cd, ids[static_cast<std::size_t>(i)],
                               &base) != CUBLAS_STATUS_SUCCESS)
      continue;
    std::vector<std::uint32_t> tiles = cap_ids(base, CUBLASLT_ALGO_CAP_TILE_IDS);
    std::vector<std::uint32_t> stages = cap_ids(base, CUBLASLT_ALGO_CAP_STAGES_IDS);
    if (tiles.empty()) tiles.push_back(CUBLASLT_MATMUL_TILE_UNDEFINED);
    if (stages.empty()) stages.push_back(CUBLASLT_MATMUL_STAGES_UNDEFINED);
    const int swizzles = cap_int(base, CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT) != 0 ? 2 : 1;
    for (const std::uint32_t tile : tiles)
      for (const std::uint32_t stage : stages)
        for (const std::uint16_t cluster : clusters)
          for (std::uint32_t swizzle = 0; swizzle < static_cast<std::uint32_t>(swizzles); ++swizzle) {
            cublasLtMatmulAlgo_t algo = base;
            const std::int32_t split = 1;
            cublasLtMatmulHeuristicResult_t checked{};
            if (cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile) ||
                cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stage, sizeof stage) ||
                cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cluster,
                                                     sizeof cluster) ||
                cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle,
                                                     sizeof swizzle) ||
                cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &split, sizeof split))
              continue;
            if (cublasLtMatmulAlgoCheck(p.lt, p.op, p.a, p.b, p.c, p.c, &algo, &checked) != CUBLAS_STATUS_SUCCESS ||
                checked.workspaceSize > p.workspace_cap)
              continue;
            out.push_back({algo, checked.workspaceSize});
          }
  }
  return out;
}

}  // namespace matmul_space
