// One cause per fault: a process computing on a job's GPU is the one finding (gpu-in-use), naming what
// it cost the burn; the records measured beside it are marked (beside_tenant) and left out of the
// floor, slow-GPU, straggler and outlier rules, which would otherwise raise a second finding that
// points at power, clocks and cooling.
#include "judge/TenancyChecks.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "judge/Judge.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Figure.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::judge {
namespace {

using results::BurnRecord;
using results::GpuProcess;
using results::MidRunTenant;
using results::RankEnv;

RankEnv h200_rank(int rank, int local_rank = 0) {
  RankEnv r;
  r.rank = rank;
  r.local_rank = local_rank;
  r.host = "node0";
  r.pid = 1000 + rank;
  r.backend = "cuda";
  results::GpuInfo g;
  g.name = "NVIDIA H200";
  g.uuid = "GPU-" + std::to_string(rank);
  g.pci_bus_id = "0000:1" + std::to_string(rank) + ":00.0";
  r.gpu = g;
  r.tenancy.probed = true;
  r.tenancy.utilization_pct = {0, 0, 0, 0, 0};
  return r;
}

BurnRecord burn_record(int rank, double tflops) {
  BurnRecord b;
  b.rank = rank;
  b.host = "node0";
  b.gpu = "NVIDIA H200";
  b.precision = "bf16";
  b.sustained_tflops = tflops;
  return b;
}

MidRunTenant tenant_on(int rank, const std::string& phase, bool compute = true) {
  return {phase, rank, "node0", "GPU 0000:1" + std::to_string(rank) + ":00.0 (NVIDIA H200)",
          GpuProcess{4242, "gpu_burn", compute, 2048ull << 20}, {}, {phase}};
}

results::PairResult pair(int a, int b) {
  results::PairResult p;
  p.a = a;
  p.b = b;
  return p;
}

// Training figures of `ranks`, one each.
std::vector<results::TrainRankFigures> on_ranks(std::initializer_list<int> ranks) {
  std::vector<results::TrainRankFigures> out;
  for (int r : ranks) {
    results::TrainRankFigures k;
    k.rank = r;
    out.push_back(k);
  }
  return out;
}

std::vector<results::Check> errors_of(const RunReport& run) {
  std::vector<results::Check> out;
  for (const auto& c : run.checks)
    if (c.severity == Severity::error) out.push_back(c);
  return out;
}

// One H200 beside a process that appeared when burn started: it sustained 372 TFLOP/s, under the
// model's floor (554). Today's one finding is gpu-in-use, and it names the shortfall as its own.
TEST(TenancyAttribution, TheSlowBurnBesideATenantIsTheTenantsOneFinding) {
  RunReport run;
  run.ranks = {h200_rank(0)};
  run.phases_completed = {"env", "burn"};
  run.burn = {burn_record(0, 372)};
  run.tenants = {tenant_on(0, "burn")};
  run.shared_phases = {"burn"};
  judge(run, {});
  const auto found = errors_of(run);
  ASSERT_EQ(found.size(), 1u) << found.back().id << ": " << found.back().message;
  EXPECT_EQ(found[0].id, results::check_ids::kGpuInUse);
  EXPECT_NE(found[0].message.find("beside it the burn sustained 372.0 TFLOP/s bf16 on rank 0, under the model's "
                                  "floor of 554.1 TFLOP/s: that shortfall is this process's, not the GPU's power, "
                                  "clocks or cooling"),
            std::string::npos)
      << found[0].message;
  EXPECT_TRUE(run.marks.has(BurnMark::beside_tenant, 0));
  EXPECT_FALSE(run.marks.has(BurnMark::slow, 0));
  EXPECT_TRUE(run.marks.value(BurnMark::floor, 0));  // the model's floor is still shown beside the figure
  const auto figures = results::flatten(run);
  const auto sustained = std::find_if(figures.begin(), figures.end(),
                                      [](const auto& f) { return f.metric == "sustained_tflops"; });
  ASSERT_NE(sustained, figures.end());
  EXPECT_TRUE(sustained->beside_tenant);

  // Without the tenant the same figure is the GPU's own: under its floor, an error of its own.
  run.tenants.clear();
  run.shared_phases.clear();
  judge(run, {});
  const auto alone = errors_of(run);
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].id, results::check_ids::kGpuSlowSustained);
  EXPECT_FALSE(run.marks.has(BurnMark::beside_tenant, 0));
  EXPECT_TRUE(run.marks.has(BurnMark::slow, 0));
}

// A process there from the start (env's listing) on rank 1 of two: the burn ran beside it. Neither
// the floor nor the comparison with rank 0 raises a finding; env's gpu-in-use names the shortfall.
TEST(TenancyAttribution, AProcessListedByEnvMarksEveryRecordOfItsGpu) {
  RunReport run;
  run.ranks = {h200_rank(0), h200_rank(1)};
  run.ranks[1].tenancy.processes = {GpuProcess{4242, "gpu_burn", true, 2048ull << 20}};
  run.phases_completed = {"env", "burn"};
  run.burn = {burn_record(0, 674), burn_record(1, 316)};
  judge(run, {});
  const auto found = errors_of(run);
  ASSERT_EQ(found.size(), 1u) << found.back().id << ": " << found.back().message;
  EXPECT_EQ(found[0].id, results::check_ids::kGpuInUse);
  EXPECT_EQ(found[0].ranks, std::vector<int>{1});
  EXPECT_NE(found[0].message.find("beside it the burn sustained 316.0 TFLOP/s bf16 on rank 1, under the model's floor"),
            std::string::npos)
      << found[0].message;
  for (const auto& c : run.checks) EXPECT_NE(c.id, results::check_ids::kGpuSlowSustained) << c.message;
  EXPECT_FALSE(run.marks.has(BurnMark::beside_tenant, 0));
  EXPECT_TRUE(run.marks.has(BurnMark::beside_tenant, 1));
}

// Which records a tenant on rank 3 of 4 (2 nodes of 2) marks, phase by phase: its own GPU's, the
// collectives whose group holds rank 3, and the training configurations that ran on it.
TEST(TenancyAttribution, MarksTheRecordsOfThePhasesAndRanksTheTenantNames) {
  RunReport run;
  run.ranks = {h200_rank(0, 0), h200_rank(1, 1), h200_rank(2, 0), h200_rank(3, 1)};
  run.phases_completed = {"env", "links", "compute", "burn", "collectives", "train"};
  auto t = tenant_on(3, "compute");
  t.phases = {"compute", "burn", "collectives"};  // it left during collectives
  run.tenants = {t};
  run.shared_phases = t.phases;
  for (int r = 0; r < 4; ++r) {
    results::ComputeRecord c;
    c.rank = r;
    c.gpu = "NVIDIA H200";
    run.compute.push_back(c);
    results::LinksRecord l;
    l.rank = r;
    l.gpu = "NVIDIA H200";
    run.links.push_back(l);
    run.burn.push_back(burn_record(r, 674));
  }
  results::CollectivesRecord coll;
  for (const char* group : {"world", "first 2", "inter-node", "intra-node"}) {
    results::CollectiveSweep s;
    s.op = "allreduce";
    s.group = group;
    coll.sweeps.push_back(s);
    results::ScalingPoint p;
    p.group = group;
    coll.scaling.push_back(p);
  }
  results::PairMatrix pairs;
  pairs.pairs = {pair(0, 1), pair(1, 3), pair(2, 3), pair(0, 2)};
  coll.pairs = pairs;
  run.collectives = coll;
  results::TrainRecord ddp;
  ddp.strategy = "ddp";
  ddp.gpus = 4;
  ddp.ranks = on_ranks({0, 1, 2, 3});
  run.train.records = {ddp};

  apply_marks(run, beside_tenant_marks(run, rule_context(run)));
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(run.marks.has(ComputeMark::beside_tenant, static_cast<std::size_t>(r)), r == 3) << r;
    EXPECT_EQ(run.marks.has(BurnMark::beside_tenant, static_cast<std::size_t>(r)), r == 3) << r;
    EXPECT_FALSE(run.marks.has(LinksMark::beside_tenant, static_cast<std::size_t>(r)))
        << "links ran before it appeared";
  }
  // world and intra-node hold rank 3; "first 2" does not, nor inter-node (local rank 0 of each node).
  EXPECT_TRUE(run.marks.has(CollectivesMark::sweep_beside_tenant, 0) &&
              run.marks.has(CollectivesMark::sweep_beside_tenant, 3));
  EXPECT_FALSE(run.marks.has(CollectivesMark::sweep_beside_tenant, 1) ||
               run.marks.has(CollectivesMark::sweep_beside_tenant, 2));
  EXPECT_TRUE(run.marks.has(CollectivesMark::scaling_beside_tenant, 0) &&
              run.marks.has(CollectivesMark::scaling_beside_tenant, 3));
  EXPECT_FALSE(run.marks.has(CollectivesMark::scaling_beside_tenant, 1) ||
               run.marks.has(CollectivesMark::scaling_beside_tenant, 2));
  EXPECT_FALSE(run.marks.has(CollectivesMark::pair_beside_tenant, 0));
  EXPECT_TRUE(run.marks.has(CollectivesMark::pair_beside_tenant, 1) &&
              run.marks.has(CollectivesMark::pair_beside_tenant, 2));
  EXPECT_FALSE(run.marks.has(CollectivesMark::pair_beside_tenant, 3));
  EXPECT_FALSE(run.marks.has(TrainMark::beside_tenant, 0)) << "it had left before train";

  // A file written before tenants listed their phases: its phase and the later shared ones.
  run.tenants[0].phases.clear();
  run.shared_phases = {"compute", "burn", "collectives", "train"};
  apply_marks(run, beside_tenant_marks(run, rule_context(run)));
  EXPECT_TRUE(run.marks.has(TrainMark::beside_tenant, 0));
  EXPECT_FALSE(run.marks.has(LinksMark::beside_tenant, 3));
  EXPECT_TRUE(run.marks.has(ComputeMark::beside_tenant, 3));
}

TEST(TenancyAttribution, AProcessThatOnlyHoldsMemoryMarksNothing) {
  RunReport run;
  run.ranks = {h200_rank(0)};
  run.phases_completed = {"env", "burn"};
  run.burn = {burn_record(0, 674)};
  run.tenants = {tenant_on(0, "burn", false)};
  run.shared_phases = {"burn"};
  EXPECT_TRUE(beside_tenant_marks(run, rule_context(run)).empty());
  judge(run, {});
  EXPECT_FALSE(run.marks.has(BurnMark::beside_tenant, 0));
  EXPECT_TRUE(errors_of(run).empty());
}

// A 1-GPU baseline measured beside a tenant inflates the efficiency of every configuration that divides
// by it (2.2 on one GPU): those are marked too, even where their own GPUs had no tenant (DP drives
// rank 0's devices; the tenant is on rank 1's).
TEST(TenancyAttribution, AnEfficiencyOverASharedBaselineIsMarked) {
  RunReport run;
  run.ranks = {h200_rank(0), h200_rank(1)};
  run.phases_completed = {"env", "train"};
  run.tenants = {tenant_on(1, "train")};
  results::TrainRecord single, dp;
  single.strategy = "single";
  single.model = dp.model = "mlp";
  single.batch_per_gpu = 256;
  single.samples_per_s = 100;
  single.ranks = on_ranks({0, 1});  // every rank alone
  dp.strategy = "dp";
  dp.gpus = 2;
  dp.batch_per_gpu = 256;
  dp.samples_per_s = 440;
  dp.efficiency = 2.2;
  run.train.records = {single, dp};
  apply_marks(run, beside_tenant_marks(run, rule_context(run)));
  EXPECT_TRUE(run.marks.has(TrainMark::beside_tenant, 0));
  EXPECT_TRUE(run.marks.has(TrainMark::beside_tenant, 1));
  run.train.records[1].efficiency.reset();  // no efficiency: DP's own GPUs had the devices to themselves
  apply_marks(run, beside_tenant_marks(run, rule_context(run)));
  EXPECT_FALSE(run.marks.has(TrainMark::beside_tenant, 1));
}

}  // namespace
}  // namespace gpuscale::judge
