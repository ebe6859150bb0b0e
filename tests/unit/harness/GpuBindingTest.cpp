// Which GPU each rank picks from the GPUs its node's ranks see, and when one rank can drive them all.
#include "harness/GpuBinding.hpp"

#include <algorithm>

#include <gtest/gtest.h>

namespace gpuscale::harness {
namespace {

TEST(GpuBinding, EveryRankSeesAllGpusPicksByLocalRank) {
  const std::vector<std::string> keys(4, "0000:19,0000:3b,0000:4c,0000:5d");
  for (int l = 0; l < 4; ++l) EXPECT_EQ(pick_device(keys, l, 4), l);
}

TEST(GpuBinding, OneGpuPerTaskPicksItsOnlyGpu) {
  const std::vector<std::string> keys = {"0000:19", "0000:3b", "0000:4c", "0000:5d"};
  for (int l = 0; l < 4; ++l) EXPECT_EQ(pick_device(keys, l, 1), 0);
}

TEST(GpuBinding, ClosestWithRanksAlternatingSocketsStaysDistinct) {
  // --gpu-bind=closest, 8 GPUs on 2 sockets, Slurm's cyclic socket distribution: even local ranks see
  // socket 0's four GPUs, odd ones socket 1's. local rank % 4 would give ranks 0 and 4 one GPU.
  std::vector<std::string> keys;
  for (int l = 0; l < 8; ++l) keys.push_back(l % 2 ? "socket1-gpus" : "socket0-gpus");
  std::vector<std::pair<std::string, int>> chosen;
  for (int l = 0; l < 8; ++l) chosen.emplace_back(keys[static_cast<std::size_t>(l)], pick_device(keys, l, 4));
  std::sort(chosen.begin(), chosen.end());
  EXPECT_EQ(std::unique(chosen.begin(), chosen.end()), chosen.end()) << "two ranks picked one GPU";
  EXPECT_EQ(pick_device(keys, 4, 4), 2);
  EXPECT_EQ(pick_device(keys, 5, 4), 2);
}

TEST(GpuBinding, LeaderDrivesTheGpusItSeesUnlessEachRankSeesOne) {
  EXPECT_TRUE(leader_drives_node_gpus(8, 8).possible);
  EXPECT_TRUE(leader_drives_node_gpus(8, 4).possible);
  EXPECT_TRUE(leader_drives_node_gpus(2, 4).possible) << "a socket's GPUs (--gpu-bind=closest): DP over those";
  EXPECT_TRUE(leader_drives_node_gpus(1, 1).possible) << "one rank, one GPU: DP over one GPU";
  const auto per_task = leader_drives_node_gpus(1, 8);
  EXPECT_FALSE(per_task.possible);
  EXPECT_NE(per_task.reason.find("sees 1 GPU but its node runs 8 ranks"), std::string::npos) << per_task.reason;
  EXPECT_FALSE(leader_drives_node_gpus(0, 1).possible);
}

}  // namespace
}  // namespace gpuscale::harness
