// GPU labels are unique in the job: host and local rank, also where every rank sees one GPU (CUDA
// index 0 everywhere) and where nodes share a host name; the JSON identity is the UUID or bus id.
#include "results/models/GpuLabels.hpp"

#include <set>

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

std::vector<RankEnv> ranks(int nodes, int per_node, bool one_host) {
  std::vector<RankEnv> out;
  for (int r = 0; r < nodes * per_node; ++r) {
    RankEnv e;
    e.rank = r;
    e.node = r / per_node;
    e.local_rank = r % per_node;
    e.host = one_host ? "box" : "gpu" + std::to_string(e.node);
    e.gpu.emplace();
    e.gpu->cuda_index = 0;  // --gpu-bind=single:1: each rank sees one GPU
    e.gpu->pci_bus_id = "0000:" + std::to_string(10 + e.local_rank) + ":00.0";
    out.push_back(e);
  }
  return out;
}

TEST(GpuLabels, HostAndLocalRankWhenEachRankSeesOneGpu) {
  const auto labels = gpu_labels(ranks(3, 4, false));
  EXPECT_EQ(labels[0], "gpu0#0");
  EXPECT_EQ(labels[7], "gpu1#3");
  EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
}

TEST(GpuLabels, NodesThatShareAHostNameAreToldApart) {
  const auto labels = gpu_labels(ranks(6, 4, true));
  EXPECT_EQ(labels[0], "box/n0#0");
  EXPECT_EQ(labels[23], "box/n5#3");
  EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
}

TEST(GpuLabels, IdentityIsTheUuidElseTheBusId) {
  auto r = ranks(1, 2, false);
  r[0].gpu->uuid = "GPU-1234";
  EXPECT_EQ(gpu_identity(r[0]), "GPU-1234");
  EXPECT_EQ(gpu_identity(r[1]), "0000:11:00.0");
  r[1].gpu.reset();
  EXPECT_EQ(gpu_identity(r[1]), "");
}

}  // namespace
}  // namespace gpuscale::results
