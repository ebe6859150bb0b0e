// NCCL's cost model tables read from its tuning log (parse_nccl_models): the block layout of NCCL 2.19
// and later and the one-header layout before it, the communicator size from the INIT line of the same
// thread, and one model per communicator shape.
#include <sstream>

#include <gtest/gtest.h>

#include "collectives/NcclTuningLog.hpp"

namespace gpuscale::collectives {
namespace {

// One communicator's table in blocks of three algorithms, as NCCL prints it (columns padded alike).
std::string block_table(const std::string& prefix, double ring_simple_bw) {
  const std::string p = prefix + " NCCL INFO ";
  return p + "  Algorithm   |                 Tree                |                 Ring                |\n" +
         p + "  Protocol    |          LL |       LL128 |      Simple |          LL |       LL128 |      Simple |\n" +
         p + " Max NThreads |         512 |         640 |         512 |         512 |         640 |         512 |\n" +
         p + "    Broadcast |   0.0/  0.0 |   0.0/  0.0 |   0.0/  0.0 |   9.3/  5.0 |  18.0/  0.0 |  22.4/ 20.0 |\n" +
         p + "    AllReduce |  25.2/  2.5 |  48.5/  0.0 | 448.0/ 40.0 |  43.4/  2.7 |  79.4/  0.0 |  90.0/" +
         std::to_string(ring_simple_bw) + " |\n" +
         p + "  Algorithm   |                 NVLS                |\n" +
         p + "  Protocol    |          LL |       LL128 |      Simple |\n" +
         p + " Max NThreads |           0 |           0 |         640 |\n" +
         p + "    Broadcast |   0.0/  0.0 |   0.0/  0.0 |   0.0/  0.0 |\n" +
         p + "    AllReduce |   0.0/  0.0 |   0.0/  0.0 |  25.0/  0.0 |\n";
}

const results::NcclModelEntry* entry(const results::NcclModel& m, const std::string& op, const std::string& algo,
                                     const std::string& proto) {
  for (const auto& e : m.entries)
    if (e.op == op && e.algorithm == algo && e.protocol == proto) return &e;
  return nullptr;
}

TEST(NcclModelLog, ReadsTheBlocksOfEachCommunicatorWithItsSize) {
  std::istringstream log(
      "h:7:11 [0] NCCL INFO comm 0x5558e3c10180 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n"
      "h:7:12 [0] NCCL INFO comm 0x5558e3c10999 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0\n"
      "h:7:11 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}\n" +
      block_table("h:7:12 [0]", 150.0) + block_table("h:7:11 [0]", 45.5));
  const auto models = parse_nccl_models(log);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].ranks, 8);  // thread 12's table, printed first
  EXPECT_EQ(models[0].nodes, 1);
  EXPECT_EQ(models[1].ranks, 16);
  EXPECT_EQ(models[1].nodes, 2);
  EXPECT_EQ(models[1].entries.size(), 2u * 6 + 2u * 3);  // two functions over both blocks
  const auto* ring = entry(models[1], "allreduce", "Ring", "Simple");
  ASSERT_NE(ring, nullptr);
  EXPECT_DOUBLE_EQ(ring->latency_us, 90.0);
  EXPECT_DOUBLE_EQ(ring->bandwidth_gbps, 45.5);
  const auto* nvls = entry(models[1], "allreduce", "NVLS", "Simple");
  ASSERT_NE(nvls, nullptr);
  EXPECT_DOUBLE_EQ(nvls->latency_us, 25.0);
  EXPECT_EQ(entry(models[1], "Max NThreads", "Tree", "LL"), nullptr);
}

TEST(NcclModelLog, KeepsTheFirstModelOfEachShapeAndSplitsTablesWithoutInitLines) {
  // Without INIT lines a repeated algorithm starts the next table; both are of unknown size (0, 0).
  std::istringstream log(block_table("h:1:1 [0]", 10.0) + block_table("h:1:1 [0]", 20.0) +
                         "h:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n" +
                         block_table("h:1:1 [0]", 30.0));
  const auto models = parse_nccl_models(log);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].ranks, 0);
  EXPECT_DOUBLE_EQ(entry(models[0], "allreduce", "Ring", "Simple")->bandwidth_gbps, 10.0);
  EXPECT_EQ(models[1].ranks, 2);
  EXPECT_DOUBLE_EQ(entry(models[1], "allreduce", "Ring", "Simple")->bandwidth_gbps, 30.0);
}

TEST(NcclModelLog, ReadsTheOneHeaderLayoutOfOlderNccl) {
  std::istringstream log(
      "h:5:5 [0] NCCL INFO comm 0x2 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 MNNVL 0\n"
      "h:5:5 [0] NCCL INFO Latency/AlgBw |    Tree/    LL |    Tree/ LL128 |    Tree/Simple |    Ring/    LL |"
      "    Ring/ LL128 |    Ring/Simple |\n"
      "h:5:5 [0] NCCL INFO  Max NThreads |            512 |            640 |            512 |            512 |"
      "            640 |            256 |\n"
      "h:5:5 [0] NCCL INFO     AllGather |     0.0/   0.0 |     0.0/   0.0 |     0.0/   0.0 |    33.3/   0.8 |"
      "    52.0/   0.0 |   105.6/   3.2 |\n"
      "h:5:5 [0] NCCL INFO threadThresholds 8/8/64 | 128/8/64 | 512 | 512\n");
  const auto models = parse_nccl_models(log);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].ranks, 4);
  ASSERT_EQ(models[0].entries.size(), 6u);
  const auto* ring = entry(models[0], "allgather", "Ring", "Simple");
  ASSERT_NE(ring, nullptr);
  EXPECT_DOUBLE_EQ(ring->latency_us, 105.6);
  EXPECT_DOUBLE_EQ(ring->bandwidth_gbps, 3.2);
}

TEST(NcclModelLog, ALogWithoutTablesHasNoModels) {
  std::istringstream log("h:1:1 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}\n"
                         "garbage | 1/2 | 3/\n");
  EXPECT_TRUE(parse_nccl_models(log).empty());
}

TEST(NcclModelLog, ABlockWithoutItsProtocolLineAddsNothing) {
  // The rows after a block header wait for its Protocol line, not the previous block's columns.
  std::istringstream log(block_table("h:1:1 [0]", 10.0) +
                         "h:1:1 [0] NCCL INFO   Algorithm   |                 PAT                 |\n"
                         "h:1:1 [0] NCCL INFO     AllReduce |   1.0/  2.0 |   3.0/  4.0 |   5.0/  6.0 |\n");
  const auto models = parse_nccl_models(log);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].entries.size(), 2u * 6 + 2u * 3);
  EXPECT_EQ(entry(models[0], "allreduce", "NVLS", "Simple")->latency_us, 25.0);
}

}  // namespace
}  // namespace gpuscale::collectives
