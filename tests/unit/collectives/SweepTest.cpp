// Size lists, size parsing, the headline, the round-robin schedule, link figures,
// NCCL's tuning log, the checks the record produces, and the phase's time as run_collectives's parameter.
#include "collectives/Sweep.hpp"

#include <set>
#include <sstream>
#include <type_traits>

#include <gtest/gtest.h>

#include "collectives/CollectivesRun.hpp"
#include "collectives/LinkExpectation.hpp"
#include "collectives/NcclTuningLog.hpp"
#include "collectives/PairMatrix.hpp"
#include "collectives/Scaling.hpp"
#include "harness/Error.hpp"
#include "phases/collectives/CollectivesChecks.hpp"

namespace gpuscale::collectives {
namespace {

using judge::collective_checks;

// The phase's timeout is run_collectives's parameter, not a setup field a caller could leave unset.
template <class T>
constexpr bool holds_a_timeout = requires(const T& t) { t.timeout_s; };

TEST(SweepOptions, TheRunTakesThePhasesTime) {
  EXPECT_FALSE(holds_a_timeout<CollectivesRunSetup>);
  EXPECT_FALSE(holds_a_timeout<SweepOptions>);
  EXPECT_FALSE((std::is_invocable_v<decltype(&run_collectives), const SweepOptions&, CollectivesRunSetup&>));
  EXPECT_TRUE((std::is_invocable_v<decltype(&run_collectives), const SweepOptions&, CollectivesRunSetup&, double>));
}

TEST(SweepOptions, SizeListsAreNcclTests) {
  SweepOptions o;
  o.min_bytes = 8;
  o.max_bytes = 1u << 30;
  o.step_factor = 4;
  const auto sizes = size_list(o);
  ASSERT_EQ(sizes.size(), 14u);  // 8 .. 512M: 8 * 4^13 = 512M, 2G is past the end
  EXPECT_EQ(sizes.front(), 8u);
  EXPECT_EQ(sizes.back(), 512u << 20);
  o.step_factor = 2;
  EXPECT_EQ(size_list(o).size(), 28u);
  o.min_bytes = 100;
  o.max_bytes = 400;
  o.step_bytes = 100;
  EXPECT_EQ(size_list(o), (std::vector<std::uint64_t>{100, 200, 300, 400}));
}

TEST(SweepOptions, BadValuesAreUsageErrors) {
  auto expect_bad = [](auto change) {
    SweepOptions o;
    change(o);
    EXPECT_THROW(validate(o), harness::UsageError);
  };
  expect_bad([](SweepOptions& o) { o.max_bytes = 4, o.min_bytes = 8; });
  expect_bad([](SweepOptions& o) { o.step_factor = 1; });
  expect_bad([](SweepOptions& o) { o.min_bytes = 0; });
  expect_bad([](SweepOptions& o) { o.iterations = 0; });
  expect_bad([](SweepOptions& o) { o.aggregated = 0; });
  expect_bad([](SweepOptions& o) { o.step_bytes = 1, o.min_bytes = 0, o.max_bytes = 1u << 30; });
  expect_bad([](SweepOptions& o) { o.pair_threshold = 2; });
}

results::CollectiveRow row(std::uint64_t size, double time_s, double busbw) {
  results::CollectiveRow r;
  r.size_bytes = size;
  r.out_of_place.measured = true;
  r.out_of_place.time_s = time_s;
  r.out_of_place.busbw_gbps = busbw;
  return r;
}

TEST(Sweep, HeadlineNamesTheSizesItUses) {
  results::CollectiveSweep s;
  s.rows = {row(0, 1e-6, 0), row(8, 10e-6, 0.001), row(128u << 20, 1e-3, 300), row(512u << 20, 3e-3, 350)};
  fill_headline(s);
  EXPECT_DOUBLE_EQ(s.headline.peak_busbw_gbps, 350);
  EXPECT_EQ(s.headline.peak_size_bytes, 512u << 20);
  EXPECT_EQ(s.headline.busbw_256m_size_bytes, 128u << 20);
  EXPECT_DOUBLE_EQ(*s.headline.busbw_256m_gbps, 300);
  EXPECT_EQ(s.headline.busbw_1g_size_bytes, 512u << 20);
  EXPECT_EQ(s.headline.latency_size_bytes, 8u);  // not the empty 0-byte row
  EXPECT_DOUBLE_EQ(*s.headline.latency_stream_s, 10e-6);
  EXPECT_FALSE(s.headline.latency_graph_s);
}

TEST(PairMatrix, RoundRobinMeetsEveryPairOnceAndNoRankTwicePerRound) {
  for (const int n : {2, 3, 4, 5, 8}) {
    std::set<std::pair<int, int>> seen;
    for (const auto& round : round_robin(n)) {
      std::set<int> busy;
      for (const auto& [a, b] : round) {
        EXPECT_LT(a, b);
        EXPECT_TRUE(busy.insert(a).second && busy.insert(b).second) << "rank twice in a round, n=" << n;
        EXPECT_TRUE(seen.insert({a, b}).second) << "pair twice, n=" << n;
      }
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << n;
    EXPECT_EQ(round_robin(n).size(), static_cast<std::size_t>(n % 2 ? n : n - 1));
  }
}

TEST(Scaling, GroupsForTwoNodesOfFour) {
  const auto g = scaling_groups(5, 8, 1, 1, 4, 2);
  ASSERT_EQ(g.size(), 5u);  // first 2, first 4, world, intra-node, inter-node
  EXPECT_EQ(g[0].name, "first 2");
  EXPECT_EQ(g[0].color, -1);
  EXPECT_EQ(g[2].name, "world");
  EXPECT_EQ(g[3].color, 1);  // its node
  EXPECT_EQ(g[3].communicators, 2);
  EXPECT_EQ(g[4].color, -1);  // not local rank 0
  EXPECT_EQ(scaling_groups(0, 3, 0, 0, 3, 1).size(), 2u);  // first 2, world
}

namespace {

// Two GPUs of one node, each listing the other as a peer over `nvlinks` NVLinks of NVML version
// `nvml_version`, its links grouped under `remote` (the far end NVML reports).
std::vector<results::RankEnv> two_gpus(int nvlinks, int nvml_version, const std::string& remote) {
  std::vector<results::RankEnv> ranks(2);
  const std::string bus[] = {"0000:19:00.0", "0000:3B:00.0"};
  for (int i = 0; i < 2; ++i) {
    ranks[i].rank = i;
    ranks[i].gpu.emplace();
    ranks[i].gpu->pci_bus_id = bus[i];
    if (nvlinks > 0) ranks[i].gpu->nvlinks = {{remote, nvlinks, nvml_version}};
    ranks[i].gpu->peers = {{bus[1 - i], true, true, 0, nvlinks}};
    ranks[i].gpu->pcie_gen = 5;
    ranks[i].gpu->pcie_width = 16;
  }
  return ranks;
}

}  // namespace

TEST(LinkExpectation, NvSwitchVmWithHiddenFarEndIsNvlink) {
  // The 2x H200 VM: all 18 links end at ffff:ff:ff.0 (the NVSwitch fabric is hidden), so only the
  // peers' nvlink_count (nvidia-smi topo's NV18) says the GPUs talk over NVLink.
  const auto ranks = two_gpus(18, 6, "ffff:ff:ff.0");
  const auto link = link_for(ranks, 0);
  EXPECT_EQ(link.name, "NVLink4 x18");
  ASSERT_TRUE(link.gbps);
  EXPECT_NEAR(*link.gbps, 478.1, 0.1);
}

TEST(LinkExpectation, NvlinkPcieAndNetwork) {
  EXPECT_NEAR(18 * nvlink_gbps_per_link(4), 478.1, 0.1);  // the NV18 figure of the issue
  EXPECT_EQ(nvlink_generation(6), 4);                      // nvmlNvlinkVersion_t 6 = NVLink 4.0
  EXPECT_EQ(nvlink_generation(4), 3);
  EXPECT_EQ(nvlink_generation(99), 0);
  EXPECT_NEAR(pcie_gbps(5, 16), 63.0, 0.1);
  auto ranks = two_gpus(12, 4, "0000:3b:00.0");  // direct A100-style links, far end is the peer
  EXPECT_EQ(link_for(ranks, 0).name, "NVLink3 x12");
  EXPECT_NEAR(*link_for(ranks, 0).gbps, 12 * 25.78125, 1e-9);
  ranks[1].gpu->peers[0].nvlink_count = 6;  // the pair's smallest count sets the pace
  EXPECT_EQ(link_for(ranks, 0).name, "NVLink3 x6");
  ranks[1].gpu->peers[0].nvlink_count = 0;  // one direction without an NVLink path: PCIe
  ranks[1].gpu->pcie_gen = 4;
  EXPECT_EQ(link_for(ranks, 0).name, "PCIe gen4 x16");  // the slowest member sets the pace
  EXPECT_EQ(link_for({ranks[0]}, 0).gbps, std::nullopt);  // one GPU: no link to cross

  auto three = two_gpus(18, 6, "ffff:ff:ff.0");  // a third GPU the others have no NVLink to
  three.push_back(three[1]);
  three[2].rank = 2;
  three[2].gpu->pci_bus_id = "0000:5d:00.0";
  three[2].gpu->peers = {{"0000:19:00.0", true, true, 0, 18}, {"0000:3b:00.0", true, true, 0, 18}};
  EXPECT_EQ(link_for(three, 0).name, "PCIe gen5 x16");
  three[2].gpu->pci_bus_id = "0000:3b:00.0";  // two ranks on one GPU: only one pair to cross
  EXPECT_EQ(link_for(three, 0).name, "NVLink4 x18");

  ranks[1].node = 1;
  EXPECT_FALSE(link_for(ranks, 0).gbps);  // between nodes without --net-gbps: unknown
  EXPECT_NEAR(*link_for(ranks, 25).gbps, 25, 1e-9);

  results::CollectiveSweep s;
  s.headline.peak_busbw_gbps = 100;
  apply_link(s, {400.0, "NVLink4 x18"});
  EXPECT_DOUBLE_EQ(*s.headline.peak_percent_of_link, 25);
  results::CollectivesRecord record;
  record.link_threshold = 0.6;
  record.sweeps = {s};
  const auto checks = collective_checks(record).checks;
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "collective-below-link");
}

TEST(Checks, WrongDataIsAnError) {
  results::CollectivesRecord record;
  results::CollectiveSweep s;
  s.op = "allreduce";
  s.rows = {row(1024, 1e-5, 1)};
  s.rows[0].in_place.wrong = 3;
  record.sweeps = {s};
  const auto checks = collective_checks(record).checks;
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "collective-wrong-data");
  EXPECT_EQ(checks[0].severity, results::Severity::error);
  EXPECT_NE(checks[0].message.find("allreduce 1 KiB in-place: 3"), std::string::npos) << checks[0].message;
}

TEST(NcclTuningLog, ParsesAndAnnotates) {
  std::istringstream log(
      "h:1:1 [0] NCCL INFO NCCL_DEBUG_SUBSYS set\n"
      "h:1:1 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}\n"
      "h:1:1 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}\n"
      "h:1:1 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15} "
      "cgaClusterSize 0\n"
      "h:1:1 [0] NCCL INFO AllGather: 4 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}\n");
  const auto choices = parse_nccl_tuning_log(log);
  ASSERT_EQ(choices.size(), 4u);
  EXPECT_EQ(choices[2].bytes, 1048576u);
  results::CollectiveSweep s;
  s.op = "allreduce";
  s.rows = {row(8, 1, 1), row(1 << 20, 1, 1), row(1 << 22, 1, 1)};
  s.rows[0].count = 2;
  s.rows[1].count = 1 << 18;
  s.rows[2].count = 1 << 20;
  annotate(s, choices, 4);
  EXPECT_EQ(s.rows[0].nccl_algorithm, "RING/LL");
  EXPECT_EQ(s.rows[1].nccl_algorithm, "RING/SIMPLE");
  EXPECT_EQ(s.rows[2].nccl_algorithm, "");
  EXPECT_EQ(nccl_func_name("sendrecv"), "");
  const std::string path = nccl_tuning_log_path("node7.cluster", 42);
  EXPECT_EQ(path.substr(path.rfind('/') + 1), "gpuscale-nccl-tuning.node7.42.log");  // NCCL's %h stops at '.'

}

}  // namespace
}  // namespace gpuscale::collectives
