// The console's NCCL line: the smoke allreduce is one verified call, shown as its result and time, never
// as a bandwidth; a one-rank communicator is named as using no transport.
#include "results/report/ConsoleLaunch.hpp"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

RunReport with_ranks(int n, std::vector<std::string> transports) {
  RunReport r;
  r.world_size = n;
  r.node_count = 1;
  for (int rank = 0; rank < n; ++rank) {
    RankEnv e;
    e.rank = rank;
    e.smoke.ran = e.smoke.passed = true;
    e.smoke.elements = std::size_t{1} << 20;  // 4 MiB of float
    e.smoke.op_s = 0.000312;
    e.smoke.nccl.captured = true;
    e.smoke.nccl.nodes = 1;
    e.smoke.nccl.network = "Socket";
    e.smoke.nccl.transports = transports;
    r.ranks.push_back(e);
  }
  return r;
}

std::string launch_text(const RunReport& r) {
  std::ostringstream out;
  write_launch(r, out);
  return out.str();
}

TEST(ConsoleLaunch, SmokeAllreduceIsAResultAndATimeNotABandwidth) {
  const std::string text = launch_text(with_ranks(2, {"P2P/CUMEM"}));
  EXPECT_NE(text.find("NCCL: 1 node via P2P/CUMEM (network Socket) [ranks 0,1]; smoke allreduce 4 MiB ok, 0.312 ms"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("GB/s"), std::string::npos) << text;
}

TEST(ConsoleLaunch, OneRankUsesNoTransport) {
  RunReport r = with_ranks(1, {});
  r.ranks[0].smoke.passed = false;
  const std::string text = launch_text(r);
  EXPECT_NE(text.find("NCCL: no transport (one rank) [ranks 0]; smoke allreduce 4 MiB FAILED"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("network"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpuscale::results
