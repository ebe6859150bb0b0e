// The GPU configuration rules on synthetic env records, as NVML would fill them: quiet on a healthy
// H200 (ECC on, MIG off, 700 W = its default, application clocks at their default, persistence on),
// each fault raised with its severity on the right rank, and a setting NVML does not support judged
// by nothing.
#include "phases/env/GpuConfigChecks.hpp"

#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

RankEnv healthy_h200(int rank) {
  RankEnv r;
  r.rank = rank;
  r.host = "node0";
  GpuInfo g;
  g.name = "NVIDIA H200";
  g.pci_bus_id = "0000:1" + std::to_string(rank) + ":00.0";
  g.clock_event_reasons = 0x1;  // idle
  g.sm_clock_max_mhz = 1980;
  g.power_limit_w = g.power_management_limit_w = g.power_default_limit_w = 700;
  g.ecc_enabled = true;
  g.mig_enabled = false;
  g.persistence_enabled = true;
  g.applications_clock_sm_mhz = g.default_applications_clock_sm_mhz = 1980;
  g.remapped_rows_pending = g.remapped_rows_failure = 0;
  r.gpu = g;
  return r;
}

std::vector<Check> judge(const std::vector<RankEnv>& ranks) {
  std::vector<Check> out;
  gpu_config_checks(ranks, out);
  return out;
}

// "id:severity:ranks" of every check, for one comparison.
std::vector<std::string> summary(const std::vector<Check>& checks) {
  std::vector<std::string> out;
  for (const auto& c : checks) {
    std::string ranks;
    for (int r : c.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
    out.push_back(c.id + ":" + std::string(to_string(c.severity)) + ":" + ranks);
  }
  return out;
}

TEST(GpuConfigChecks, HealthyH200IsQuiet) {
  EXPECT_TRUE(judge({healthy_h200(0), healthy_h200(1)}).empty());
}

TEST(GpuConfigChecks, RowRemapPendingWarnsAndFailedFails) {
  auto ranks = std::vector<RankEnv>{healthy_h200(0), healthy_h200(1)};
  ranks[0].gpu->remapped_rows_pending = 1;
  ranks[1].gpu->remapped_rows_failure = 1;
  EXPECT_EQ(summary(judge(ranks)), (std::vector<std::string>{"row-remap-pending:warning:0", "row-remap-failed:error:1"}));
}

TEST(GpuConfigChecks, EccOffMigOnPersistenceOff) {
  auto ranks = std::vector<RankEnv>{healthy_h200(0), healthy_h200(1), healthy_h200(2)};
  ranks[0].gpu->ecc_enabled = false;
  ranks[1].gpu->mig_enabled = true;
  ranks[2].gpu->persistence_enabled = false;
  const auto checks = judge(ranks);
  EXPECT_EQ(summary(checks), (std::vector<std::string>{"ecc-disabled:warning:0", "mig-enabled:error:1",
                                                       "persistence-off:info:2"}));
  EXPECT_NE(checks[1].message.find("nvidia-smi -i <gpu> -mig 0"), std::string::npos) << checks[1].message;
}

TEST(GpuConfigChecks, PowerLimitBelowDefaultAndDifferingBetweenGpus) {
  auto ranks = std::vector<RankEnv>{healthy_h200(0), healthy_h200(1), healthy_h200(2)};
  ranks[1].gpu->power_management_limit_w = ranks[1].gpu->power_limit_w = 500;
  const auto checks = judge(ranks);
  EXPECT_EQ(summary(checks),
            (std::vector<std::string>{"power-limit-lowered:warning:1", "power-limit-mismatch:warning:1"}));
  EXPECT_NE(checks[0].message.find("500 W is below its default 700 W"), std::string::npos) << checks[0].message;
  EXPECT_NE(checks[1].message.find("500 W on ranks 1, 700 W on ranks 0,2"), std::string::npos) << checks[1].message;
}

TEST(GpuConfigChecks, AllLoweredAlikeIsLoweredButNoMismatch) {
  auto ranks = std::vector<RankEnv>{healthy_h200(0), healthy_h200(1)};
  for (auto& r : ranks) r.gpu->power_management_limit_w = 500;
  EXPECT_EQ(summary(judge(ranks)),
            (std::vector<std::string>{"power-limit-lowered:warning:0", "power-limit-lowered:warning:1"}));
}

TEST(GpuConfigChecks, LoweredOrLockedClocks) {
  auto ranks = std::vector<RankEnv>{healthy_h200(0), healthy_h200(1)};
  ranks[0].gpu->applications_clock_sm_mhz = 1500;
  ranks[1].gpu->clock_event_reasons = 0x1 | kClockEventApplicationsClocks;
  const auto checks = judge(ranks);
  EXPECT_EQ(summary(checks), (std::vector<std::string>{"clocks-lowered:warning:0", "clocks-lowered:warning:1"}));
  EXPECT_NE(checks[0].message.find("1500 MHz, below their default 1980 MHz"), std::string::npos) << checks[0].message;
}

TEST(GpuConfigChecks, NotSupportedIsNoCheck) {
  auto r = healthy_h200(0);
  auto& g = *r.gpu;
  g.ecc_enabled.reset();  // e.g. a GPU without ECC: NVML answers NOT_SUPPORTED
  g.mig_enabled.reset();
  g.persistence_enabled.reset();
  g.power_management_limit_w.reset();
  g.power_default_limit_w.reset();
  g.applications_clock_sm_mhz.reset();
  EXPECT_TRUE(judge({r}).empty());
  RankEnv cpu;
  EXPECT_TRUE(judge({cpu}).empty());
}

TEST(GpuConfigChecks, SettingsRoundTripThroughTheEnvJson) {
  auto r = healthy_h200(0);
  r.gpu->mig_enabled = true;
  r.gpu->power_default_limit_w.reset();
  nlohmann::json j = r;
  EXPECT_EQ(j["gpu"]["mig_enabled"], true);
  EXPECT_TRUE(j["gpu"]["power_default_limit_w"].is_null());
  const auto back = j.get<RankEnv>();
  EXPECT_EQ(back.gpu->mig_enabled, true);
  EXPECT_EQ(back.gpu->ecc_enabled, true);
  EXPECT_EQ(back.gpu->applications_clock_sm_mhz, 1980u);
  EXPECT_FALSE(back.gpu->power_default_limit_w);
  EXPECT_EQ(summary(judge({back})), std::vector<std::string>{"mig-enabled:error:0"});
}

}  // namespace
}  // namespace gpuscale::results
