// NCCL's INFO lines (format of NCCL 2.2x) to transports, and the checks that read them.
#include "harness/NcclLog.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "phases/env/NcclPathChecks.hpp"

namespace gpuscale::harness {
namespace {

using judge::nccl_path_checks;

constexpr const char* kTwoHostsOverSockets =
    "h200:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n"
    "h200:1:1 [0] NCCL INFO Using network Socket\n"
    "h200:1:1 [0] NCCL INFO comm 0x5581 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n"
    "h200:1:9 [0] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [receive] via NET/Socket/0\n"
    "h200:1:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/Socket/0\n";

constexpr const char* kOneHostOverNvlink =
    "h200:1:1 [0] NCCL INFO Using network IB\n"
    "h200:1:1 [0] NCCL INFO comm 0x77 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n"
    "h200:1:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n"
    "h200:1:9 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n"
    "h200:1:1 [0] NCCL INFO comm 0x99 rank 0 nRanks 1 nNodes 1 localRanks 1 localRank 0 MNNVL 0\n";

results::NcclPaths parse(const char* text) {
  std::istringstream in(text);
  return parse_nccl_log(in);
}

TEST(NcclLog, TwoHostsOverSockets) {
  const auto p = parse(kTwoHostsOverSockets);
  EXPECT_TRUE(p.captured);
  EXPECT_EQ(p.nodes, 2);
  EXPECT_EQ(p.local_ranks, 1);
  EXPECT_EQ(p.network, "Socket");
  EXPECT_EQ(p.transports, std::vector<std::string>{"NET/Socket"});
}

TEST(NcclLog, OneHostOverNvlinkKeepsTheFirstCommunicator) {
  const auto p = parse(kOneHostOverNvlink);
  EXPECT_EQ(p.nodes, 1);
  EXPECT_EQ(p.local_ranks, 2);
  EXPECT_EQ(p.transports, std::vector<std::string>{"P2P/CUMEM"});
}

results::RankEnv rank_with(int rank, const char* log, const char* hostid) {
  results::RankEnv r;
  r.rank = rank;
  r.world_size = 2;
  r.local_size = 2;
  r.local_rank = rank;
  r.host = "h200";
  r.smoke.ran = r.smoke.passed = true;
  r.smoke.elements = 1 << 20;
  r.smoke.op_s = 0.004;
  r.smoke.nccl = parse(log);
  if (hostid) r.variables["NCCL_HOSTID"] = hostid;
  return r;
}

TEST(NcclPathChecks, SocketTransportIsAWarningNamingItAndTheHostIds) {
  std::vector<results::RankEnv> ranks = {rank_with(0, kTwoHostsOverSockets, "a"), rank_with(1, kTwoHostsOverSockets, "b")};
  std::vector<results::Check> checks;
  nccl_path_checks(ranks, checks);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].id, "nccl-socket-transport");
  EXPECT_EQ(checks[0].severity, results::Severity::warning);
  EXPECT_EQ(checks[0].ranks, (std::vector<int>{0, 1}));
  EXPECT_NE(checks[0].message.find("NET/Socket"), std::string::npos);
  EXPECT_NE(checks[0].message.find("busbw 1.05 GB/s"), std::string::npos) << checks[0].message;
  EXPECT_NE(checks[0].message.find("different NCCL_HOSTID"), std::string::npos);
  EXPECT_EQ(checks[1].id, "nccl-node-mismatch");
}

TEST(NcclPathChecks, NvlinkOnOneHostIsQuiet) {
  std::vector<results::RankEnv> ranks = {rank_with(0, kOneHostOverNvlink, nullptr), rank_with(1, kOneHostOverNvlink, nullptr)};
  std::vector<results::Check> checks;
  nccl_path_checks(ranks, checks);
  EXPECT_TRUE(checks.empty());
}

}  // namespace
}  // namespace gpuscale::harness
