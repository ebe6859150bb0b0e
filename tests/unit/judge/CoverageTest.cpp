// The coverage list and its verdict line (judge/Coverage.hpp) on synthetic runs: a plan of 4 ranks
// whose collectives and DDP were dropped for the budget, one rank, a phase not run, no plan.
#include "judge/Coverage.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/VerdictRules.hpp"
#include "results/report/Expectations.hpp"

namespace gpuscale::judge {
namespace {

using namespace results;

// A whole-job run of `ranks` ranks that planned two collective ops of 3 sizes, DDP over every rank
// and single; the phases ran.
RunReport planned_run(int ranks) {
  RunReport r;
  r.world_size = ranks;
  r.node_count = 1;
  r.complete = true;
  r.phases_completed = {"env", "collectives", "train"};
  RunPlanRecord plan;
  plan.profile = "quick-cpu";
  plan.phases = {"env", "collectives", "train"};
  plan.items = {{"env", results::planned::kEnvChecks, "probes and checks", {}, 1, ranks},
                {"collectives", results::planned::kSweep, "allreduce", {{"op", "allreduce"}}, 3, ranks},
                {"collectives", results::planned::kSweep, "allgather", {{"op", "allgather"}}, 3, ranks},
                {"train",
                 results::planned::kTrain,
                 "single mlp bf16 x1 weak",
                 {{"strategy", "single"}, {"model", "mlp"}, {"precision", "bf16"}, {"scaling", "weak"}, {"gpus", "1"}},
                 1,
                 1},
                {"train",
                 results::planned::kTrain,
                 "ddp mlp bf16 x" + std::to_string(ranks) + " weak",
                 {{"strategy", "ddp"},
                  {"model", "mlp"},
                  {"precision", "bf16"},
                  {"scaling", "weak"},
                  {"gpus", std::to_string(ranks)}},
                 1,
                 ranks}};
  r.plan = plan;
  r.collectives = CollectivesRecord{};
  return r;
}

CollectiveSweep sweep(const std::string& op, int ranks, int sizes) {
  CollectiveSweep s;
  s.op = op;
  s.group = "world";
  s.ranks = ranks;
  for (int i = 0; i < sizes; ++i) {
    CollectiveRow row;
    row.size_bytes = 8u << (2 * i);
    row.out_of_place.measured = true;
    s.rows.push_back(row);
  }
  return s;
}

TrainRecord train(const std::string& strategy, int gpus) {
  TrainRecord t;
  t.strategy = strategy;
  t.model = "mlp";
  t.precision = "bf16";
  t.scaling = "weak";
  t.gpus = gpus;
  return t;
}

const CoverageItem& item(const std::vector<CoverageItem>& c, const std::string& name) {
  for (const auto& i : c)
    if (i.item == name) return i;
  throw std::out_of_range(name);
}

void drop_for_budget(RunReport& r) {
  r.budget = BudgetRecord{15,
                          {{"collectives", 9, 12, "allreduce", 8, {"allgather (every size)"}},
                           {"train", 15, 16, "train single mlp", 3, {"1 training configuration"}}}};
}

TEST(Coverage, EverythingMeasuredPasses) {
  auto r = planned_run(4);
  r.collectives->sweeps = {sweep("allreduce", 4, 3), sweep("allgather", 4, 3)};
  r.train.records = {train("single", 1), train("ddp", 4)};
  const auto c = judge_coverage(r, true);
  ASSERT_EQ(c.size(), 5u);
  for (const auto& i : c) EXPECT_EQ(i.result, RuleResult::pass) << i.item << ": " << i.reason;
  const auto rule = coverage_rule(r, c, true);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->result, RuleResult::pass);
  EXPECT_EQ(rule->detail, "5 planned, 5 measured in full, 0 skipped");
}

// The case the coverage exists for: --quick over 4 ranks dropped a sweep and DDP beyond one GPU for the
// budget. Each is a SKIP line naming why; the verdict's line WARNs naming them, and FAILs with
// --require-complete.
TEST(Coverage, DroppedWorkTheJobNeededWarnsAndFailsWhenRequired) {
  auto r = planned_run(4);
  r.collectives->sweeps = {sweep("allreduce", 4, 3)};
  r.train.records = {train("single", 1)};
  drop_for_budget(r);
  auto c = judge_coverage(r, false);
  EXPECT_EQ(item(c, "allreduce").result, RuleResult::pass);
  const auto& gather = item(c, "allgather");
  EXPECT_EQ(gather.result, RuleResult::skip);
  EXPECT_EQ(gather.reason, "dropped: budget spent (needed: multi-GPU)");
  EXPECT_TRUE(gather.needed);
  EXPECT_EQ(item(c, "ddp mlp bf16 x4 weak").result, RuleResult::skip);
  auto rule = coverage_rule(r, c, false);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->result, RuleResult::warn);
  EXPECT_EQ(rule->detail,
            "work the job needed was not measured: collectives allgather, train ddp mlp bf16 x4 weak (dropped: budget "
            "spent); --require-complete fails this");

  c = judge_coverage(r, true);
  EXPECT_EQ(item(c, "allgather").result, RuleResult::fail);
  EXPECT_EQ(item(c, "ddp mlp bf16 x4 weak").result, RuleResult::fail);
  rule = coverage_rule(r, c, true);
  EXPECT_EQ(rule->result, RuleResult::fail);
  // Through the verdict: the run's own flag (the plan's) and --require-complete on `report` alike.
  EXPECT_TRUE(evaluate_verdict(r, {}, {}).passed);
  r.plan->require_complete = true;
  EXPECT_FALSE(evaluate_verdict(r, {}, {}).passed);
  r.plan->require_complete = false;
  Expectations strict;
  strict.require_complete = true;
  EXPECT_FALSE(evaluate_verdict(r, {}, strict).passed);
}

TEST(Coverage, APartlyMeasuredSweepSaysHowMuch) {
  auto r = planned_run(4);
  r.collectives->sweeps = {sweep("allreduce", 4, 1), sweep("allgather", 4, 3)};
  r.train.records = {train("single", 1), train("ddp", 4)};
  drop_for_budget(r);
  const auto coverage = judge_coverage(r, false);
  const auto& reduce = item(coverage, "allreduce");
  EXPECT_EQ(reduce.result, RuleResult::warn);
  EXPECT_EQ(reduce.reason, "1 of 3 sizes measured; the rest dropped: budget spent (needed: multi-GPU)");
  EXPECT_EQ(item(judge_coverage(r, true), "allreduce").result, RuleResult::fail);
}

// Work the job did not need (single on one GPU) dropped for the budget is a SKIP that never fails.
TEST(Coverage, DroppedWorkOfOneGpuIsASkipEvenWhenRequired) {
  auto r = planned_run(4);
  r.collectives->sweeps = {sweep("allreduce", 4, 3), sweep("allgather", 4, 3)};
  r.train.records = {train("ddp", 4)};
  drop_for_budget(r);
  const auto c = judge_coverage(r, true);
  const auto& single = item(c, "single mlp bf16 x1 weak");
  EXPECT_EQ(single.result, RuleResult::skip);
  EXPECT_EQ(single.reason, "dropped: budget spent");
  EXPECT_FALSE(single.needed);
  EXPECT_EQ(coverage_rule(r, c, true)->result, RuleResult::pass);
}

TEST(Coverage, OneRankMeasuresNoLinkAndFailsNothing) {
  auto r = planned_run(1);
  r.collectives->sweeps = {sweep("allreduce", 1, 3), sweep("allgather", 1, 3)};
  r.train.records = {train("single", 1), train("ddp", 1)};
  const auto c = judge_coverage(r, true);
  EXPECT_EQ(item(c, "allreduce").result, RuleResult::skip);
  EXPECT_EQ(item(c, "allreduce").reason, "one rank: a local copy, no link measured");
  EXPECT_EQ(item(c, "ddp mlp bf16 x1 weak").result, RuleResult::pass);
  EXPECT_EQ(coverage_rule(r, c, true)->result, RuleResult::pass);
}

TEST(Coverage, APhaseNotRunIsNeeded) {
  auto r = planned_run(4);
  r.phases_completed = {"env"};
  r.phases_skipped = {{"collectives", "env check gpu-in-use on ranks 1 (see checks)"},
                      {"train", "env check gpu-in-use on ranks 1 (see checks)"}};
  const auto c = judge_coverage(r, false);
  EXPECT_EQ(item(c, "allreduce").reason, "phase not run: env check gpu-in-use on ranks 1 (see checks)");
  EXPECT_TRUE(item(c, "single mlp bf16 x1 weak").needed);
  EXPECT_EQ(coverage_rule(r, c, false)->result, RuleResult::warn);
  EXPECT_EQ(item(judge_coverage(r, true), "allreduce").result, RuleResult::fail);
}

// A file written while the run goes on: the phases ahead are not reached yet, not dropped.
TEST(Coverage, PhasesNotReachedYetAreNotDropped) {
  auto r = planned_run(4);
  r.complete = false;
  r.phases_completed = {"env"};
  const auto c = judge_coverage(r, true);
  EXPECT_EQ(item(c, "allreduce").reason, "not reached yet");
  EXPECT_EQ(item(c, "allreduce").result, RuleResult::skip);
  EXPECT_EQ(coverage_rule(r, c, true)->result, RuleResult::pass);
}

TEST(Coverage, ARunWithoutAPlanHasNoneAndFailsOnlyWhenRequired) {
  auto r = planned_run(4);
  r.plan.reset();
  EXPECT_TRUE(judge_coverage(r, true).empty());
  EXPECT_FALSE(coverage_rule(r, {}, false));
  const auto rule = coverage_rule(r, {}, true);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->result, RuleResult::fail);
}

// A record's own reason (out of memory) is a SKIP by design, not dropped work.
TEST(Coverage, ARecordsOwnSkipReasonIsNotADrop) {
  auto r = planned_run(4);
  r.collectives->sweeps = {sweep("allreduce", 4, 3), sweep("allgather", 4, 3)};
  auto ddp = train("ddp", 4);
  ddp.skipped_reason = "out of memory at batch 256";
  r.train.records = {train("single", 1), ddp};
  const auto c = judge_coverage(r, true);
  EXPECT_EQ(item(c, "ddp mlp bf16 x4 weak").reason, "out of memory at batch 256");
  EXPECT_FALSE(item(c, "ddp mlp bf16 x4 weak").needed);
  EXPECT_EQ(coverage_rule(r, c, true)->result, RuleResult::pass);
}

// A plan read from a newer gpuscale may hold a kind its phase does not know here: it reads, and is
// listed as not measured rather than passed or refused.
TEST(Coverage, AKindItsPhaseDoesNotKnowIsNotMeasured) {
  auto r = planned_run(4);
  r.collectives->sweeps = {sweep("allreduce", 4, 3), sweep("allgather", 4, 3)};
  r.train.records = {train("single", 1), train("ddp", 4)};
  nlohmann::json plan = *r.plan;
  plan["items"].push_back({{"phase", "collectives"}, {"kind", "hierarchy"}, {"name", "node-local rings"},
                           {"labels", nlohmann::json::object()}, {"count", 1}, {"gpus", 4}});
  r.plan = plan.get<RunPlanRecord>();
  const auto c = judge_coverage(r, false);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(item(c, "node-local rings").result, RuleResult::skip);
  EXPECT_EQ(item(c, "node-local rings").reason, "no record of it");
  EXPECT_EQ(item(c, "allreduce").result, RuleResult::pass);
}

}  // namespace
}  // namespace gpuscale::judge
