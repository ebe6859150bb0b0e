// Tenants judged from the looks at the GPUs after every phase: who is the job's, who env already
// named, when a busy GPU counts, which phases a tenant shared; and judge() writing them into the report
// from the looks, whatever tenants the file held, with the report's busy threshold.
#include "judge/MidRunTenants.hpp"

#include <gtest/gtest.h>

#include "judge/Judge.hpp"
#include "results/base/CheckIds.hpp"

namespace gpuscale::judge {
namespace {

using results::GpuProcess;
using results::TenancyLook;

// Four ranks on one host as two nodes of two, PIDs 100..103, one GPU each; env listed PID 500 on rank 1.
std::vector<results::RankEnv> ranks() {
  std::vector<results::RankEnv> out(4);
  for (int r = 0; r < 4; ++r) {
    auto& e = out[static_cast<std::size_t>(r)];
    e.rank = r, e.node = r / 2, e.host = "h", e.pid = 100 + r;
    e.gpu.emplace();
    e.gpu->uuid = "GPU-" + std::to_string(r), e.gpu->pci_bus_id = "0000:0" + std::to_string(r) + ":00.0";
    e.gpu->name = "NVIDIA H200";
    e.tenancy.probed = true;
    e.tenancy.processes = {{100 + r, "gpuscale", true, 1u << 30}};
  }
  out[1].tenancy.processes.push_back({500, "", false, 1u << 20});
  return out;
}

TenancyLook look(const std::string& phase, int rank, std::vector<GpuProcess> processes,
                 std::vector<unsigned> utilization = {}, std::vector<unsigned> again = {}) {
  TenancyLook l;
  l.phase = phase, l.rank = rank, l.seen.processes = std::move(processes);
  l.seen.utilization_pct = std::move(utilization), l.utilization_again_pct = std::move(again);
  return l;
}

const GpuProcess kStranger{600, "python", true, 2u << 30};

TEST(MidRunTenants, AProcessNotTheJobsIsATenantFromThePhaseItAppeared) {
  const std::vector<TenancyLook> looks = {
      look("compute", 0, {{100, "gpuscale", true, 0}, {101, "gpuscale", true, 0}}),  // a peer's context
      look("compute", 1, {{101, "gpuscale", true, 0}, {500, "", false, 0}}),         // env named 500
      look("collectives", 1, {{101, "gpuscale", true, 0}, kStranger}),
      look("train", 1, {{101, "gpuscale", true, 0}, kStranger}),
      look("burn", 1, {{101, "gpuscale", true, 0}}),
      look("links", 1, {{101, "gpuscale", true, 0}})};
  const auto judged = judge_midrun_tenants(ranks(), looks, 20);
  ASSERT_EQ(judged.tenants.size(), 1u);
  const auto& t = judged.tenants[0];
  EXPECT_EQ(t.phase, "collectives");
  EXPECT_EQ(t.rank, 1);
  EXPECT_EQ(t.process.pid, 600);
  EXPECT_EQ(t.gpu, "GPU 0000:01:00.0 (NVIDIA H200)");
  // There at the end of collectives and train, so at the start of train and burn: not of links.
  EXPECT_EQ(t.phases, (std::vector<std::string>{"collectives", "train", "burn"}));
  EXPECT_EQ(judged.shared_phases, (std::vector<std::string>{"collectives", "train", "burn"}));
}

// Where a PID namespace hides the job's PIDs, a node's ranks may hold that many unnamed contexts on a
// GPU (its own and its peer's); one more is someone else's.
TEST(MidRunTenants, UnnamedContextsOfTheNodesRanksAreTheJobs) {
  const GpuProcess unnamed{900, "", true, 0}, another{901, "", true, 0}, third{902, "", true, 0};
  EXPECT_TRUE(judge_midrun_tenants(ranks(), {look("compute", 2, {unnamed, another})}, 20).tenants.empty());
  const auto judged = judge_midrun_tenants(ranks(), {look("compute", 2, {unnamed, another, third})}, 20);
  ASSERT_EQ(judged.tenants.size(), 1u);
  EXPECT_EQ(judged.tenants[0].process.pid, 902);
}

TEST(MidRunTenants, ABusyGpuCountsAtTheThresholdOnItsSecondLook) {
  const std::vector<TenancyLook> looks = {look("compute", 0, {}, {30, 34, 32}),
                                          look("compute", 2, {}, {90, 80, 85}, {5, 4, 6})};  // its own kernels
  auto judged = judge_midrun_tenants(ranks(), looks, 20);
  ASSERT_EQ(judged.tenants.size(), 1u);
  EXPECT_EQ(judged.tenants[0].rank, 0);
  EXPECT_EQ(judged.tenants[0].process.pid, 0);
  EXPECT_DOUBLE_EQ(*judged.tenants[0].utilization_pct, 32);
  EXPECT_TRUE(judge_midrun_tenants(ranks(), looks, 40).tenants.empty());
  EXPECT_EQ(judge_midrun_tenants(ranks(), looks, 4).tenants.size(), 2u);
}

// The report's tenants are the judge's: the file's are replaced by what its looks say, with the
// report's busy threshold or --expect's.
TEST(MidRunTenants, JudgeWritesTheTenantsFromTheLooks) {
  RunReport run;
  run.ranks = ranks();
  run.ranks[1].tenancy.processes.pop_back();  // only mid-run findings here
  run.phases_completed = {"env", "compute"};
  run.tenancy_looks = {look("compute", 0, {}, {30, 34, 32})};
  run.tenants = {{"compute", 3, "h", "GPU 3", kStranger, std::nullopt, {"compute"}}};  // stale
  const auto in_use = [&] {
    int n = 0;
    for (const auto& c : run.checks) n += c.id == results::check_ids::kGpuInUse;
    return n;
  };
  judge(run, {});
  ASSERT_EQ(run.tenants.size(), 1u);
  EXPECT_EQ(run.tenants[0].rank, 0);
  EXPECT_FALSE(run.tenants_not_rejudged);
  EXPECT_EQ(in_use(), 1);
  results::Expectations looser;
  looser.rule_inputs.busy_utilization_pct = 50;
  judge(run, looser);
  EXPECT_TRUE(run.tenants.empty());
  EXPECT_EQ(in_use(), 0);
  EXPECT_DOUBLE_EQ(run.busy_utilization_pct, 50);
  results::Expectations stricter;
  stricter.rule_inputs.busy_utilization_pct = 25;
  judge(run, stricter);
  EXPECT_EQ(run.tenants.size(), 1u);
}

TEST(MidRunTenants, AFileWithoutLooksKeepsItsTenantsMarked) {
  RunReport run;
  run.ranks = ranks();
  run.ranks[1].tenancy.processes.pop_back();  // only mid-run findings here
  run.phases_completed = {"env", "compute"};
  run.tenants = {{"compute", 1, "h", "GPU 1", kStranger, std::nullopt, {"compute"}}};
  judge(run, {});
  ASSERT_EQ(run.tenants.size(), 1u);
  EXPECT_TRUE(run.tenants_not_rejudged);
  bool said = false;
  for (const auto& c : run.checks)
    if (c.id == results::check_ids::kGpuInUse)
      said = said || c.message.find("as the run found it: the file holds no looks to judge again") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace gpuscale::judge
