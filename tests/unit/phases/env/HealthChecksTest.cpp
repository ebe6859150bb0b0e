// The node-health rules on synthetic records: tenancy (gpu-in-use), NCCL plugins, RDMA adapters;
// each on its pass and fail side; which GPU phases a blocking check stops.
#include "phases/env/HealthChecks.hpp"

#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "results/world/GpuTenants.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

RankEnv rank_on(int rank, const std::string& host, int node, const std::string& uuid) {
  RankEnv r;
  r.rank = rank;
  r.node = node;
  r.host = host;
  r.pid = 1000 + rank;
  r.backend = "cuda";
  GpuInfo g;
  g.name = "NVIDIA H200";
  g.uuid = uuid;
  g.pci_bus_id = "0000:19:00.0";
  r.gpu = g;
  r.tenancy.probed = true;
  r.tenancy.utilization_pct = {0, 0, 0, 0, 0};
  return r;
}

GpuProcess process(int pid, const std::string& name, bool compute, std::uint64_t mib = 874) {
  return GpuProcess{pid, name, compute, mib << 20};
}

std::vector<Check> tenancy(const std::vector<RankEnv>& ranks) {
  std::vector<Check> out;
  tenancy_checks(ranks, out);
  return out;
}

TEST(TenancyChecks, OwnRanksOnTheGpuAreNotForeign) {
  // Two ranks share a GPU (duplicate-gpu's business): each lists the other, which is the job's.
  auto a = rank_on(0, "h", 0, "GPU-a");
  auto b = rank_on(1, "h", 0, "GPU-a");
  a.tenancy.processes = b.tenancy.processes = {process(1000, "gpuscale", true), process(1001, "gpuscale", true)};
  EXPECT_TRUE(tenancy({a, b}).empty());
}

TEST(TenancyChecks, ForeignComputeProcessIsAnErrorNamingPidAndName) {
  auto a = rank_on(0, "h", 0, "GPU-a");
  auto b = rank_on(1, "h", 0, "GPU-b");
  b.tenancy.processes = {process(1001, "gpuscale", true), process(4242, "python3", true)};
  const auto checks = tenancy({a, b});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "gpu-in-use");
  EXPECT_EQ(checks[0].severity, Severity::error);
  EXPECT_EQ(checks[0].blocks_gpu_work, GpuBlock::shared_gpu);
  EXPECT_EQ(checks[0].ranks, (std::vector<int>{1}));
  EXPECT_NE(checks[0].message.find("PID 4242 (python3, 874 MiB)"), std::string::npos) << checks[0].message;
  EXPECT_NE(checks[0].message.find("GPU 0000:19:00.0 (NVIDIA H200, GPU-b) on h"), std::string::npos);
}

TEST(TenancyChecks, SamePidOnAnotherHostIsForeign) {
  auto a = rank_on(0, "h0", 0, "GPU-a");
  auto b = rank_on(1, "h1", 1, "GPU-b");
  b.tenancy.processes = {process(1000, "python3", true)};  // rank 0's PID, but rank 0 runs on h0
  EXPECT_EQ(tenancy({a, b}).size(), 1u);
}

TEST(TenancyChecks, MemoryOnlyIsAWarning) {
  auto a = rank_on(0, "h", 0, "GPU-a");
  a.tenancy.processes = {process(77, "Xorg", false, 64)};
  const auto checks = tenancy({a});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].severity, Severity::warning);
  EXPECT_EQ(checks[0].blocks_gpu_work, GpuBlock::none);
  EXPECT_NE(checks[0].message.find("PID 77 (Xorg, 64 MiB)"), std::string::npos);
}

TEST(TenancyChecks, BusyWithoutAListedProcessIsAnError) {
  auto a = rank_on(0, "h", 0, "GPU-a");
  a.tenancy.utilization_pct = {100, 100, 97, 100, 100};
  const auto checks = tenancy({a});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].severity, Severity::error);
  EXPECT_NE(checks[0].message.find("99% busy"), std::string::npos) << checks[0].message;
  a.tenancy.utilization_pct = {0, 10, 0, 0, 0};  // a blip while contexts were created
  EXPECT_TRUE(tenancy({a}).empty());
}

TEST(TenancyChecks, HiddenPidsAreCountedNotNamed) {
  // In a container NVML lists host PIDs: the job's own context is one unnamed entry, two more are foreign.
  auto a = rank_on(0, "h", 0, "GPU-a");
  a.tenancy.processes = {process(9001, "", true, 500), process(9002, "", true, 1024), process(9003, "", true, 1024)};
  EXPECT_EQ(foreign_processes({a}, 0).size(), 2u);
  const auto checks = tenancy({a});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_NE(checks[0].message.find("2 processes whose PIDs are not visible here"), std::string::npos)
      << checks[0].message;
  EXPECT_NE(checks[0].message.find("2048 MiB"), std::string::npos);
  a.tenancy.processes.resize(1);  // only the job's own context
  EXPECT_TRUE(tenancy({a}).empty());
}

TEST(TenancyChecks, UnprobedRanksGiveOneInfoLine) {
  std::vector<RankEnv> ranks;
  for (int r = 0; r < 3; ++r) {
    RankEnv e;
    e.rank = r;
    e.host = "h";
    e.backend = "cpu";
    e.tenancy.unavailable_reason = "cpu backend: no GPU, no NVML";
    ranks.push_back(e);
  }
  const auto checks = tenancy(ranks);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "gpu-in-use-unchecked");
  EXPECT_EQ(checks[0].severity, Severity::info);
  EXPECT_EQ(checks[0].ranks, (std::vector<int>{0, 1, 2}));
}

LibraryFile plugin(const std::string& kind, bool found, std::uint64_t hash = 1) {
  LibraryFile f;
  f.kind = kind;
  f.requested = "libnccl-" + kind + ".so";
  f.found = found;
  if (found) {
    f.path = "/opt/lib/libnccl-" + kind + ".so";
    f.size_bytes = 100;
    f.fnv1a64 = hash;
  }
  return f;
}

std::vector<RankEnv> with_plugins(const std::vector<std::vector<LibraryFile>>& per_rank) {
  std::vector<RankEnv> ranks;
  for (std::size_t i = 0; i < per_rank.size(); ++i) {
    auto r = rank_on(static_cast<int>(i), "node" + std::to_string(i), static_cast<int>(i), "GPU-" + std::to_string(i));
    r.nccl_libraries = per_rank[i];
    ranks.push_back(r);
  }
  return ranks;
}

TEST(NcclPluginChecks, SamePluginsEverywherePass) {
  std::vector<Check> out;
  nccl_plugin_checks(with_plugins({{plugin("net", true), plugin("tuner", false)},
                                   {plugin("net", true), plugin("tuner", false)}}),
                     out);
  EXPECT_TRUE(out.empty());
}

TEST(NcclPluginChecks, PluginOnSomeNodesOnlyIsAnError) {
  std::vector<Check> out;
  nccl_plugin_checks(with_plugins({{plugin("net", true)}, {plugin("net", true)}, {plugin("net", false)}}), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].id, "nccl-plugin-mismatch");
  EXPECT_EQ(out[0].severity, Severity::error);
  EXPECT_EQ(out[0].ranks, (std::vector<int>{0, 1, 2}));
  EXPECT_NE(out[0].message.find("ranks 2 on node2: not found"), std::string::npos) << out[0].message;
  EXPECT_NE(out[0].message.find("NCCL_NET_PLUGIN"), std::string::npos);
}

TEST(NcclPluginChecks, CpuBackendRanksAreNotCompared) {
  auto ranks = with_plugins({{plugin("net", true)}, {plugin("net", false)}});
  for (auto& r : ranks) r.backend = "cpu";
  std::vector<Check> out;
  nccl_plugin_checks(ranks, out);
  EXPECT_TRUE(out.empty());
}

TEST(NcclPluginChecks, DifferentHashIsAnError) {
  std::vector<Check> out;
  nccl_plugin_checks(with_plugins({{plugin("tuner", true, 1)}, {plugin("tuner", true, 2)}}), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].message.find("FNV-1a 0000000000000002"), std::string::npos) << out[0].message;
}


TEST(GpuWorkBlocker, ASharedGpuStopsAllButBurnAndAnImpossibleOneStopsAll) {
  std::vector<Check> checks{{"gpu-in-use", Severity::error, {1}, "shared", GpuBlock::shared_gpu}};
  EXPECT_EQ(gpu_work_blocker(checks), &checks[0]);
  EXPECT_EQ(gpu_work_blocker(checks, GpuBlock::all_gpu_work), nullptr);  // burn still runs
  checks.push_back({"duplicate-gpu", Severity::error, {0, 1}, "two ranks", GpuBlock::all_gpu_work});
  EXPECT_EQ(gpu_work_blocker(checks, GpuBlock::all_gpu_work), &checks[1]);
  checks = {{"gpu-in-use", Severity::warning, {1}, "memory only", GpuBlock::shared_gpu}};
  EXPECT_EQ(gpu_work_blocker(checks), nullptr);  // only errors block
}

TEST(GpuWorkBlocker, KindSurvivesJsonAndOldRunsReadAsAll) {
  const Check shared{"gpu-in-use", Severity::error, {1}, "m", GpuBlock::shared_gpu};
  const nlohmann::json j = shared;
  EXPECT_EQ(j.at("blocks_gpu_work"), "shared-gpu");
  EXPECT_EQ(j.get<Check>().blocks_gpu_work, GpuBlock::shared_gpu);
  auto old = j;
  old["blocks_gpu_work"] = true;
  EXPECT_EQ(old.get<Check>().blocks_gpu_work, GpuBlock::all_gpu_work);
  old.erase("blocks_gpu_work");
  EXPECT_EQ(old.get<Check>().blocks_gpu_work, GpuBlock::none);
  EXPECT_FALSE(nlohmann::json(Check{"x", Severity::error, {}, "m"}).contains("blocks_gpu_work"));
}

}  // namespace
}  // namespace gpuscale::results
