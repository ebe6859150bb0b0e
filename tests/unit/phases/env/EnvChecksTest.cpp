// Every check, fed synthetic rank records: each must fire on its fault, name the right ranks, and
// stay quiet on a healthy job.
#include "phases/env/EnvChecks.hpp"

#include <algorithm>

#include <gtest/gtest.h>

namespace gpuscale::judge {
namespace {

using results::Check;
using results::RankEnv;
using results::Severity;

RankEnv gpu_rank(int rank, int world, int local_rank, int local_size, int visible) {
  RankEnv r;
  r.rank = rank;
  r.world_size = world;
  r.local_rank = local_rank;
  r.local_size = local_size;
  r.node = rank / local_size;
  r.host = "node" + std::to_string(r.node);
  r.backend = "cuda";
  r.visible_gpu_count = visible;
  r.cpu_online = 32;
  r.cpu_affinity = "0-15";
  results::GpuInfo g;
  g.cuda_index = local_rank % visible;
  g.name = "NVIDIA H200";
  g.uuid = "GPU-" + r.host + "-" + std::to_string(g.cuda_index);
  g.pci_bus_id = "0000:1" + std::to_string(g.cuda_index) + ":00.0";
  g.memory_total_bytes = 100;
  g.memory_free_bytes = 99;
  g.numa_node = 0;
  r.numa_cpus = {{0, "0-15"}, {1, "16-31"}};
  r.gpu = g;
  r.versions.driver = "580.1";
  r.versions.cuda_runtime = 13000;
  r.versions.nccl_header = r.versions.nccl_library = 22803;
  r.versions.cudnn_header = r.versions.cudnn_library = 91400;
  r.versions.mpi_library = "Open MPI v4.1.6";
  return r;
}

std::vector<RankEnv> healthy(int nodes, int per_node) {
  std::vector<RankEnv> ranks;
  for (int n = 0; n < nodes; ++n)
    for (int l = 0; l < per_node; ++l) ranks.push_back(gpu_rank(n * per_node + l, nodes * per_node, l, per_node, per_node));
  return ranks;
}

const Check* find(const std::vector<Check>& checks, const std::string& id) {
  const auto it = std::find_if(checks.begin(), checks.end(), [&](const Check& c) { return c.id == id; });
  return it == checks.end() ? nullptr : &*it;
}

TEST(EnvChecks, HealthyJobHasNoFindings) {
  EXPECT_TRUE(run_env_checks(healthy(2, 4)).empty());
}

TEST(EnvChecks, DuplicateUuidIsAnErrorNamingBothRanks) {
  auto ranks = healthy(1, 2);
  ranks[1].gpu = ranks[0].gpu;  // both forced onto GPU 0
  ranks[0].visible_gpu_count = ranks[1].visible_gpu_count = 1;
  const auto checks = run_env_checks(ranks);
  const auto* c = find(checks, "duplicate-gpu");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->severity, Severity::error);
  EXPECT_EQ(c->ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(results::gpu_work_blocker(checks), c);
  EXPECT_TRUE(std::any_of(checks.begin(), checks.end(),
                          [](const results::Check& k) { return k.severity == results::Severity::error; }));
}

TEST(EnvChecks, ThreeRanksOnTwoGpusIsReported) {
  std::vector<RankEnv> ranks;
  for (int r = 0; r < 3; ++r) ranks.push_back(gpu_rank(r, 3, r, 3, 2));
  const auto checks = run_env_checks(ranks);
  const auto* c = find(checks, "more-ranks-than-gpus");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->ranks, (std::vector<int>{0, 1, 2}));
  EXPECT_NE(c->message.find("3 ranks on node0 but only 2 GPUs visible"), std::string::npos);
  EXPECT_EQ(c->blocks_gpu_work, results::GpuBlock::all_gpu_work);  // NCCL refuses the communicator: every GPU phase is skipped
  const auto* d = find(checks, "duplicate-gpu");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->ranks, (std::vector<int>{0, 2}));
}

TEST(EnvChecks, OneGpuPerTaskIsNotOversubscription) {
  auto ranks = healthy(1, 4);
  for (auto& r : ranks) {
    r.visible_gpu_count = 1;
    r.gpu->cuda_index = 0;
  }
  EXPECT_EQ(find(run_env_checks(ranks), "more-ranks-than-gpus"), nullptr);
}

TEST(EnvChecks, WorldOfOneUnderAMultiRankLauncher) {
  auto ranks = healthy(1, 1);
  ranks[0].variables["OMPI_COMM_WORLD_SIZE"] = "8";
  const auto checks = run_env_checks(ranks);  // keep the vector alive: find() points into it
  const auto* c = find(checks, "world-size-mismatch");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->severity, Severity::error);
  ranks[0].variables = {{"SLURM_NTASKS", "8"}};
  const auto slurm_checks = run_env_checks(ranks);
  c = find(slurm_checks, "world-size-mismatch");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->severity, Severity::warning);
}

TEST(EnvChecks, VersionDifferencesAcrossRanks) {
  auto ranks = healthy(2, 2);
  ranks[3].versions.nccl_library = ranks[3].versions.nccl_header = 22703;
  ranks[2].versions.driver = "570.0";
  ranks[1].gpu->name = "NVIDIA H100";
  const auto checks = run_env_checks(ranks);
  ASSERT_NE(find(checks, "nccl-mismatch"), nullptr);
  EXPECT_EQ(find(checks, "nccl-mismatch")->ranks, (std::vector<int>{3}));
  EXPECT_EQ(find(checks, "nccl-mismatch")->severity, Severity::error);
  EXPECT_EQ(find(checks, "driver-mismatch")->ranks, (std::vector<int>{2}));
  EXPECT_EQ(find(checks, "gpu-model-mismatch")->ranks, (std::vector<int>{1}));
}

TEST(EnvChecks, HeaderVersusLibrary) {
  auto ranks = healthy(1, 2);
  for (auto& r : ranks) r.versions.nccl_header = 22809;
  const auto checks = run_env_checks(ranks);  // keep the vector alive: find() points into it
  const auto* c = find(checks, "nccl-header-mismatch");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->message.find("2.28.9 headers but loaded libnccl 2.28.3"), std::string::npos);
}

TEST(EnvChecks, NumaBinding) {
  auto ranks = healthy(1, 2);
  ranks[1].gpu->numa_node = 1;  // bound to 0-15 but the GPU sits on node 1
  ranks[0].cpu_affinity = "0-31";  // not bound at all
  const auto checks = run_env_checks(ranks);
  std::vector<int> flagged;
  for (const auto& c : checks)
    if (c.id == "numa-binding") flagged.insert(flagged.end(), c.ranks.begin(), c.ranks.end());
  EXPECT_EQ(flagged, (std::vector<int>{0, 1}));
}

TEST(EnvChecks, NcclDebugVariables) {
  auto ranks = healthy(1, 2);
  for (auto& r : ranks) r.variables["NCCL_P2P_DISABLE"] = "1";
  ranks[0].variables["NCCL_DEBUG"] = "INFO";  // harmless, not flagged
  const auto checks = run_env_checks(ranks);
  const auto* c = find(checks, "nccl-debug-variable");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->ranks, (std::vector<int>{0, 1}));
  EXPECT_NE(c->message.find("NCCL_P2P_DISABLE=1"), std::string::npos);
  EXPECT_EQ(std::count_if(checks.begin(), checks.end(), [](const Check& k) { return k.id == "nccl-debug-variable"; }), 1);
}

TEST(EnvChecks, HealthFaults) {
  auto ranks = healthy(1, 4);
  ranks[0].gpu->peers.push_back({"0000:11:00.0", true, false, -1, 0});
  ranks[1].gpu->peers.push_back({"0000:10:00.0", false, false, -1, 18});  // not visible: not judged
  ranks[1].gpu->memory_free_bytes = 50;
  ranks[2].gpu->clock_event_reasons = 0x40;  // hardware thermal slowdown
  ranks[3].gpu->ecc_uncorrected_volatile = 2;
  ranks[3].gpu->remapped_rows_pending = 1;
  const auto checks = run_env_checks(ranks);
  EXPECT_EQ(find(checks, "no-p2p")->ranks, (std::vector<int>{0}));
  EXPECT_EQ(find(checks, "low-free-memory")->ranks, (std::vector<int>{1}));
  EXPECT_EQ(find(checks, "gpu-throttling")->ranks, (std::vector<int>{2}));
  EXPECT_EQ(find(checks, "ecc-uncorrected")->severity, Severity::error);
  EXPECT_EQ(find(checks, "row-remap-pending")->ranks, (std::vector<int>{3}));
  EXPECT_EQ(find(checks, "row-remap-pending")->severity, Severity::warning);
  EXPECT_EQ(checks.front().severity, Severity::error);  // errors listed first
}

// The GPU configuration rules run with the env checks: quiet on healthy H200s as NVML describes them.
TEST(EnvChecks, ConfiguredHealthyH200sHaveNoFindings) {
  auto ranks = healthy(1, 2);
  for (auto& r : ranks) {
    auto& g = *r.gpu;
    g.ecc_enabled = g.persistence_enabled = true;
    g.mig_enabled = false;
    g.power_limit_w = g.power_management_limit_w = g.power_default_limit_w = 700;
    g.applications_clock_sm_mhz = g.default_applications_clock_sm_mhz = 1980;
    g.clock_event_reasons = 0x1;
  }
  EXPECT_TRUE(run_env_checks(ranks).empty());
  ranks[1].gpu->mig_enabled = true;
  EXPECT_EQ(find(run_env_checks(ranks), "mig-enabled")->severity, Severity::error);
}

TEST(EnvChecks, IdleIsNotThrottling) {
  auto ranks = healthy(1, 1);
  ranks[0].gpu->clock_event_reasons = 0x1;
  EXPECT_TRUE(run_env_checks(ranks).empty());
}

TEST(EnvChecks, FallbackAndFailedSmoke) {
  auto ranks = healthy(1, 2);
  ranks[0].backend_fallback = true;
  ranks[1].smoke.ran = true;
  ranks[1].smoke.wrong = 7;
  const auto checks = run_env_checks(ranks);
  EXPECT_EQ(find(checks, "cpu-fallback")->severity, Severity::warning);
  const auto* s = find(checks, "smoke-allreduce-failed");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->ranks, (std::vector<int>{1}));
  EXPECT_NE(s->message.find("7 wrong elements"), std::string::npos);
}

TEST(EnvChecks, CudaUnusableFailsAndBlocksGpuWork) {
  auto ranks = healthy(1, 2);
  for (auto& r : ranks) {
    r.backend = "cpu";
    r.gpu.reset();
    r.cuda_unusable =
        "CUDA sees no GPU (cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device is detected)) "
        "but this node has NVIDIA GPUs (NVML lists 8 GPUs)";
  }
  const auto checks = run_env_checks(ranks);
  const auto* c = find(checks, "cuda-unusable");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->severity, Severity::error);
  EXPECT_EQ(c->ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(c->blocks_gpu_work, results::GpuBlock::all_gpu_work);
  EXPECT_NE(c->message.find("cudaErrorNoDevice"), std::string::npos);
  EXPECT_EQ(find(checks, "cpu-fallback"), nullptr);
}

// The shared-GPU test layout (results/world/Emulation.hpp): 4 ranks, each its own emulated node, on one GPU.
std::vector<RankEnv> one_gpu_four_nodes(bool shared_gpu_mode) {
  std::vector<RankEnv> ranks;
  for (int n = 0; n < 4; ++n) {
    auto r = gpu_rank(n, 4, 0, 1, 1);
    r.host = "vm";
    r.gpu->uuid = "GPU-vm-0";
    r.variables["GPUSCALE_TEST_RANKS_PER_NODE"] = "1";
    if (shared_gpu_mode) {
      r.variables["GPUSCALE_TEST_SHARE_GPU"] = "1";
      r.variables["NCCL_HOSTID"] = "gpuscale-emulated-node-" + std::to_string(n);
    }
    ranks.push_back(r);
  }
  return ranks;
}

TEST(EnvChecks, RanksOfEmulatedNodesShareAGpuOnlyInTheSharedGpuMode) {
  EXPECT_TRUE(run_env_checks(one_gpu_four_nodes(true)).empty());
  const auto outside = run_env_checks(one_gpu_four_nodes(false));
  const auto* c = find(outside, "duplicate-gpu");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->ranks, (std::vector<int>{0, 1, 2, 3}));
}

TEST(EnvChecks, TheSharedGpuModeStillJudgesDuplicatesWithinANode) {
  auto ranks = one_gpu_four_nodes(true);
  for (auto& r : ranks) {  // two emulated nodes of two ranks, both on the one GPU
    r.node = r.rank / 2;
    r.local_rank = r.rank % 2;
    r.local_size = 2;
  }
  const auto checks = run_env_checks(ranks);
  std::vector<std::vector<int>> duplicates;
  for (const auto& k : checks)
    if (k.id == "duplicate-gpu") duplicates.push_back(k.ranks);
  EXPECT_EQ(duplicates, (std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
  EXPECT_NE(find(checks, "more-ranks-than-gpus"), nullptr);
}

TEST(EnvChecks, OnlyTheSharedGpuModesOwnHostIdIsExempt) {
  auto ranks = one_gpu_four_nodes(true);
  EXPECT_EQ(find(run_env_checks(ranks), "nccl-debug-variable"), nullptr);
  ranks[2].variables["NCCL_HOSTID"] = "my-own";
  const auto checks = run_env_checks(ranks);
  const auto* c = find(checks, "nccl-debug-variable");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->ranks, (std::vector<int>{2}));
  ranks = one_gpu_four_nodes(false);
  ranks[0].variables["NCCL_HOSTID"] = "gpuscale-emulated-node-0";
  EXPECT_NE(find(run_env_checks(ranks), "nccl-debug-variable"), nullptr);
}

}  // namespace
}  // namespace gpuscale::judge
