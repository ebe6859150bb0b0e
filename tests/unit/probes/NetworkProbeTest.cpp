// The sysfs adapter probe on fixture trees (active, down, mixed rates, no adapters) and the adapter
// rules over nodes built from them.
#include "probes/NetworkProbe.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "phases/env/HealthChecks.hpp"

namespace gpuscale::probes {
namespace {
namespace fs = std::filesystem;

class SysfsFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpuscale-sysfs-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const fs::path& relative, const std::string& text) {
    const auto path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text << '\n';
  }
  // One adapter port the way the kernel writes it.
  void port(const fs::path& node, const std::string& dev, int n, const std::string& state, const std::string& rate) {
    const fs::path p = node / "sys/class/infiniband" / dev / "ports" / std::to_string(n);
    write(p / "state", state == "ACTIVE" ? "4: ACTIVE" : "1: DOWN");
    write(p / "phys_state", state == "ACTIVE" ? "5: LinkUp" : "3: Disabled");
    write(p / "rate", rate);
    write(p / "link_layer", "InfiniBand");
    write(node / "sys/class/infiniband" / dev / "device/numa_node", "1");
  }
  fs::path root_;
};

TEST(NetworkProbe, ParsesSysfsText) {
  EXPECT_DOUBLE_EQ(parse_rate_gbps("400 Gb/sec (4X NDR)"), 400);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("2.5 Gb/sec (1X SDR)"), 2.5);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("unknown"), 0);
  EXPECT_EQ(strip_state_number("4: ACTIVE"), "ACTIVE");
  EXPECT_EQ(strip_state_number("5: LinkUp"), "LinkUp");
}

// Sysfs is read, not trusted: a rate that is no finite number in (0, 100000] Gb/s is unknown (0), with why.
TEST(NetworkProbe, RatesNoPortRunsAtAreUnknown) {
  for (const char* text : {"inf Gb/sec", "nan Gb/sec", "1e308 Gb/sec (4X NDR)", "-400 Gb/sec", "0 Gb/sec",
                           "100001 Gb/sec", "", "fast"}) {
    EXPECT_EQ(parse_rate_gbps(text), 0) << text;
    EXPECT_FALSE(rate_problem(text).empty()) << text;
  }
  EXPECT_EQ(rate_problem("1e308 Gb/sec"), "'1e308 Gb/sec' is past 100000 Gb/s, no adapter's rate");
  EXPECT_EQ(rate_problem("400 Gb/sec (4X NDR)"), "");
  EXPECT_DOUBLE_EQ(parse_rate_gbps("100000 Gb/sec"), 100000);
}

TEST_F(SysfsFixture, HostileValuesAreDroppedNeverWritten) {
  port("", "mlx5_0", 1, "ACTIVE", "1e308 Gb/sec (4X NDR)");
  port("", "mlx5_1", 1, "ACTIVE", "nan Gb/sec");
  write("sys/class/infiniband/mlx5_1/device/numa_node", "99999999999999999999");
  write("sys/class/infiniband/mlx5_1/ports/99999999999999999999/state", "4: ACTIVE");
  const auto n = probe_network(root_);
  ASSERT_EQ(n.adapters.size(), 2u);
  EXPECT_EQ(n.adapters[0].ports.at(0).rate_gbps, 0);
  EXPECT_EQ(n.adapters[0].ports.at(0).rate_unknown, "'1e308 Gb/sec (4X NDR)' is past 100000 Gb/s, no adapter's rate");
  EXPECT_EQ(n.adapters[1].ports.at(0).rate_unknown, "'nan Gb/sec' is not a finite rate");
  EXPECT_EQ(n.adapters[1].numa_node, -1);
  EXPECT_EQ(n.adapters[1].ports.size(), 1u);  // the directory that is no port number is no port
  // The record's JSON holds only finite, sane numbers, and reads back.
  const nlohmann::json j = n;
  EXPECT_EQ(j.dump().find("e+308"), std::string::npos) << j.dump();
  EXPECT_EQ(j.get<results::NetworkAdapters>().adapters[0].ports[0].rate_unknown, n.adapters[0].ports[0].rate_unknown);
}

TEST_F(SysfsFixture, ReadsEveryPort) {
  port("", "mlx5_1", 1, "DOWN", "10 Gb/sec (4X SDR)");
  port("", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  write("sys/class/net/ib0/mtu", "4092");
  write("sys/module/nvidia_peermem/refcnt", "0");
  const auto n = probe_network(root_);
  ASSERT_EQ(n.adapters.size(), 2u);
  EXPECT_EQ(n.adapters[0].name, "mlx5_0");
  EXPECT_EQ(n.adapters[0].numa_node, 1);
  ASSERT_EQ(n.adapters[0].ports.size(), 1u);
  const auto& p = n.adapters[0].ports[0];
  EXPECT_EQ(p.port, 1);
  EXPECT_EQ(p.state, "ACTIVE");
  EXPECT_EQ(p.phys_state, "LinkUp");
  EXPECT_DOUBLE_EQ(p.rate_gbps, 400);
  EXPECT_EQ(p.link_layer, "InfiniBand");
  EXPECT_EQ(n.adapters[1].ports[0].state, "DOWN");
  EXPECT_EQ(n.interfaces, (std::vector<std::string>{"ib0"}));
  EXPECT_TRUE(n.peermem_loaded);
}

TEST_F(SysfsFixture, NoAdaptersIsAnEmptyProbedRecord) {
  const auto n = probe_network(root_);
  EXPECT_TRUE(n.probed);
  EXPECT_TRUE(n.adapters.empty());
  EXPECT_FALSE(n.peermem_loaded);
}

// Nodes 0..k-1 from fixture roots node<k>, one rank each.
std::vector<results::RankEnv> nodes_from(const fs::path& root, int count) {
  std::vector<results::RankEnv> ranks;
  for (int k = 0; k < count; ++k) {
    results::RankEnv r;
    r.rank = r.node = k;
    r.host = "host" + std::to_string(k);
    r.network = probe_network(root / ("node" + std::to_string(k)));
    ranks.push_back(r);
  }
  return ranks;
}

std::vector<results::Check> adapter_checks(const std::vector<results::RankEnv>& ranks) {
  std::vector<results::Check> out;
  judge::adapter_checks(ranks, out);
  return out;
}

TEST_F(SysfsFixture, AllActiveWithPeermemPasses) {
  for (const char* node : {"node0", "node1"}) {
    port(node, "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
    write(fs::path(node) / "sys/module/nvidia_peermem/refcnt", "0");
  }
  EXPECT_TRUE(adapter_checks(nodes_from(root_, 2)).empty());
}

TEST_F(SysfsFixture, PortDownWherePeersHaveItActive) {
  port("node0", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  port("node1", "mlx5_0", 1, "DOWN", "400 Gb/sec (4X NDR)");
  port("node2", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  const auto checks = adapter_checks(nodes_from(root_, 3));
  const auto it = std::find_if(checks.begin(), checks.end(), [](const auto& c) { return c.id == "nic-down"; });
  ASSERT_NE(it, checks.end());
  EXPECT_EQ(it->severity, results::Severity::error);
  EXPECT_EQ(it->ranks, (std::vector<int>{1}));
  EXPECT_NE(it->message.find("mlx5_0/1 is not active on host1 (DOWN, Disabled)"), std::string::npos) << it->message;
}

TEST_F(SysfsFixture, SlowerPortIsARateMismatch) {
  port("node0", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  port("node1", "mlx5_0", 1, "ACTIVE", "200 Gb/sec (4X HDR)");
  port("node2", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  const auto checks = adapter_checks(nodes_from(root_, 3));
  const auto it = std::find_if(checks.begin(), checks.end(), [](const auto& c) { return c.id == "nic-rate-mismatch"; });
  ASSERT_NE(it, checks.end());
  EXPECT_EQ(it->ranks, (std::vector<int>{1}));
  EXPECT_NE(it->message.find("200 Gb/sec (4X HDR)"), std::string::npos);
  // Without peermem or dma-buf, RDMA between nodes goes through host memory.
  EXPECT_TRUE(std::any_of(checks.begin(), checks.end(), [](const auto& c) { return c.id == "gdr-unavailable"; }));
}

TEST_F(SysfsFixture, NodesWithoutAdaptersGiveOneInfoLine) {
  fs::create_directories(root_ / "node0" / "sys");
  fs::create_directories(root_ / "node1" / "sys");
  const auto checks = adapter_checks(nodes_from(root_, 2));
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "no-rdma-adapter");
  EXPECT_EQ(checks[0].severity, results::Severity::info);
  EXPECT_EQ(checks[0].ranks, (std::vector<int>{0, 1}));
}

TEST_F(SysfsFixture, AnUnknownRateIsNoMismatch) {
  port("node0", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  port("node1", "mlx5_0", 1, "ACTIVE", "1e308 Gb/sec (4X NDR)");
  port("node2", "mlx5_0", 1, "ACTIVE", "400 Gb/sec (4X NDR)");
  const auto checks = adapter_checks(nodes_from(root_, 3));
  EXPECT_TRUE(std::none_of(checks.begin(), checks.end(), [](const auto& c) { return c.id == "nic-rate-mismatch"; }));
  EXPECT_TRUE(std::none_of(checks.begin(), checks.end(), [](const auto& c) { return c.id == "nic-down"; }));
}

}  // namespace
}  // namespace gpuscale::probes
