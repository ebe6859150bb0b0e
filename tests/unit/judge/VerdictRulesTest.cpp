#include "judge/VerdictRules.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "SampleRun.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

using nlohmann::json;

Verdict verdict_for(const RunReport& r, const std::vector<Figure>& figures, const json& expect = json::object()) {
  return evaluate_verdict(r, figures, parse_expectations(expect));
}

const RuleOutcome* rule(const Verdict& v, const std::string& name) {
  for (const auto& r : v.rules)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(VerdictRules, WarningChecksWarnAndErrorChecksFail) {
  auto r = testing::sample_run();
  auto v = verdict_for(r, flatten(r));
  EXPECT_TRUE(v.passed);
  ASSERT_NE(rule(v, "no error checks"), nullptr);
  EXPECT_EQ(rule(v, "no error checks")->result, RuleResult::warn);
  r.checks.push_back(Check{"duplicate-gpu", Severity::error, {0, 1}, "two ranks on one GPU"});
  v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(rule(v, "no error checks")->detail, "errors: duplicate-gpu");
}

// A verdict line names a few findings and counts the rest, however many ids a run raises.
TEST(VerdictRules, ChecksLineNamesAFewAndCountsTheRest) {
  auto r = testing::sample_run();
  r.checks.clear();
  for (const char* id : {"numa-binding", "no-p2p", "low-free-memory", "gpu-throttling", "nccl-debug-variable"})
    r.checks.push_back(Check{id, Severity::warning, {0}, "m"});
  const auto v = verdict_for(r, flatten(r));
  EXPECT_EQ(rule(v, "no error checks")->detail, "warnings: numa-binding, no-p2p, low-free-memory and 2 more");
}

TEST(VerdictRules, ARunCutShortFails) {
  auto r = testing::sample_run();
  r.failure = RunFailure{3, "timed out in ncclAllReduce", 1, {1}};
  auto v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  ASSERT_NE(rule(v, "run completed"), nullptr);
  EXPECT_EQ(rule(v, "run completed")->detail, "failed: timed out in ncclAllReduce");
  r.failure.reset();
  r.interrupted = true;
  v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(rule(v, "run completed")->result, RuleResult::fail);
  r.interrupted = false;
  EXPECT_EQ(rule(verdict_for(r, flatten(r)), "run completed"), nullptr);
}

TEST(VerdictRules, ARunNotYetCompleteIsIncompleteNeverAPass) {
  auto r = testing::sample_run();
  r.complete = false;
  auto v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  EXPECT_TRUE(v.incomplete);
  EXPECT_STREQ(verdict_result(v), "INCOMPLETE");
  ASSERT_NE(rule(v, "run completed"), nullptr);
  EXPECT_EQ(rule(v, "run completed")->result, RuleResult::fail);
  EXPECT_NE(rule(v, "run completed")->detail.find("after phases env"), std::string::npos);
  r.failure = RunFailure{4, "interrupted by SIGTERM", 0, {}};  // ended early with a word: FAIL
  v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  EXPECT_STREQ(verdict_result(v), "FAIL");
}

CollectiveSweep sweep(const std::string& op, const std::string& skipped_reason) {
  CollectiveSweep s;
  s.op = op;
  s.skipped_reason = skipped_reason;
  if (skipped_reason.empty()) {
    CollectiveRow row;
    row.size_bytes = 8;
    row.out_of_place.measured = true;
    s.rows.push_back(row);
  }
  return s;
}

TrainRecord train_record(const std::string& strategy, const std::string& skipped_reason) {
  TrainRecord t;
  t.strategy = strategy;
  t.model = "mlp";
  t.skipped_reason = skipped_reason;
  return t;
}

// -e past the memory skips every sweep: a run that measured nothing must not pass, and says why.
TEST(VerdictRules, APhaseThatMeasuredNothingFails) {
  auto r = testing::sample_run();
  r.collectives = CollectivesRecord{};
  const std::string oom = "out of memory on rank 0: 2 TiB";
  for (const char* op : {"allreduce", "allgather"}) r.collectives->sweeps.push_back(sweep(op, oom));
  auto v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  const auto* nothing = rule(v, "collectives measured something");
  ASSERT_NE(nothing, nullptr);
  EXPECT_EQ(nothing->result, RuleResult::fail);
  EXPECT_EQ(nothing->detail, "all 2 skipped: allreduce: " + oom + "; allgather: " + oom);
  // One sweep measured: judged by its figures, no such rule.
  r.collectives->sweeps.push_back(sweep("broadcast", ""));
  v = verdict_for(r, flatten(r));
  EXPECT_EQ(rule(v, "collectives measured something"), nullptr);
  EXPECT_TRUE(v.passed);
  // A sweep without a reason but with no size measured counts as skipped too.
  r.collectives->sweeps.back().rows.front().out_of_place.measured = false;
  EXPECT_FALSE(verdict_for(r, flatten(r)).passed);
}

// DP skipped where each rank sees one GPU, while single and DDP ran, is a legitimate run.
TEST(VerdictRules, OneStrategyNotApplicableStillPasses) {
  auto r = testing::sample_run();
  const std::string one_gpu = "each rank sees one GPU: DP needs one process that sees every GPU of the node";
  r.train.records = {train_record("single", ""), train_record("dp", one_gpu), train_record("ddp", "")};
  auto v = verdict_for(r, flatten(r));
  EXPECT_EQ(rule(v, "train measured something"), nullptr);
  EXPECT_TRUE(v.passed);
  r.train.records = {train_record("dp", one_gpu)};  // --strategy dp alone: nothing measured
  v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  ASSERT_NE(rule(v, "train measured something"), nullptr);
  EXPECT_EQ(rule(v, "train measured something")->detail, "all 1 skipped: dp mlp: " + one_gpu);
  ComputeRecord c;
  c.layer = "linear";
  c.shape = "M8 N8 K8";
  c.precision = "fp32";
  c.skipped_reason = "out of memory";
  r.train.records.clear();
  r.compute = {c, c};
  v = verdict_for(r, flatten(r));
  ASSERT_NE(rule(v, "compute measured something"), nullptr);
  EXPECT_EQ(rule(v, "compute measured something")->detail, "all 2 skipped: linear M8 N8 K8 fp32: out of memory");
}

// One line per phase that measured nothing, in the order the phases run (results/base/PhaseRegistry.def).
TEST(VerdictRules, PhasesThatMeasuredNothingFailInTheOrderTheyRun) {
  auto r = testing::sample_run();
  r.collectives = CollectivesRecord{};
  r.collectives->sweeps = {sweep("allreduce", "out of memory")};
  r.train.records = {train_record("dp", "one GPU")};
  ComputeRecord c;
  c.skipped_reason = "out of memory";
  r.compute = {c};
  std::vector<std::string> lines;
  for (const auto& rule : verdict_for(r, flatten(r)).rules)
    if (rule.name.ends_with(" measured something")) lines.push_back(rule.name);
  EXPECT_EQ(lines, (std::vector<std::string>{"compute measured something", "collectives measured something",
                                             "train measured something"}));
}

TEST(VerdictRules, WrongElementsFailTheRun) {
  auto r = testing::sample_run();
  EXPECT_EQ(rule(verdict_for(r, flatten(r)), "no wrong elements")->result, RuleResult::pass);
  r.ranks[1].smoke.wrong = 7;
  const auto v = verdict_for(r, flatten(r));
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(rule(v, "no wrong elements")->detail, "env wrong_elements rank=1;test=smoke_allreduce = 7 count");
}

TEST(VerdictRules, StragglersAndLowLinkUseOnlyWarn) {
  auto r = testing::sample_run();
  r.collectives = CollectivesRecord{};
  r.collectives->link_threshold = 0.5;
  auto figures = flatten(r);
  figures.push_back({"compute", "straggler_spread", {{"layer", "mlp"}}, 0.25, "ratio", Better::lower});
  figures.push_back({"collectives", "link_use", {{"op", "allreduce"}}, 0.2, "ratio", Better::higher});
  const auto v = verdict_for(r, figures);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(rule(v, "no stragglers")->result, RuleResult::warn);
  EXPECT_EQ(rule(v, "links used well")->result, RuleResult::warn);
}

// The run's --straggler-threshold decides the "no stragglers" line, both ways, and survives the JSON.
TEST(VerdictRules, StragglerLineFollowsTheUsersThreshold) {
  auto r = testing::sample_run();
  auto figures = flatten(r);
  figures.push_back({"compute", "straggler_spread", {{"layer", "mlp"}}, 0.15, "ratio", Better::lower});
  EXPECT_EQ(rule(verdict_for(r, figures), "no stragglers")->result, RuleResult::warn) << "0.15 over the default 0.10";
  r.straggler_threshold = 0.20;
  EXPECT_EQ(rule(verdict_for(r, figures), "no stragglers")->result, RuleResult::pass) << "0.15 within 0.20";
  figures.back().value = 0.05;
  EXPECT_EQ(rule(verdict_for(r, figures), "no stragglers")->result, RuleResult::pass);
  r.straggler_threshold = 0.03;
  EXPECT_EQ(rule(verdict_for(r, figures), "no stragglers")->result, RuleResult::warn) << "0.05 over 0.03";
  const RunReport read = nlohmann::json(r).get<RunReport>();
  EXPECT_DOUBLE_EQ(read.straggler_threshold, 0.03);
}

TEST(VerdictRules, LinkUseWarnsUnderTheCollectivesPhaseThreshold) {
  auto r = testing::sample_run();
  r.collectives = CollectivesRecord{};
  auto figures = flatten(r);
  figures.push_back({"collectives", "link_use", {{"op", "allgather"}}, 0.57, "ratio", Better::higher});
  r.collectives->link_threshold = 0.6;
  EXPECT_EQ(rule(verdict_for(r, figures), "links used well")->result, RuleResult::warn);
  r.collectives->link_threshold = 0.5;
  EXPECT_EQ(rule(verdict_for(r, figures), "links used well")->result, RuleResult::pass);
}

TEST(VerdictRules, AMissedThresholdFailsNamingIt) {
  const auto r = testing::sample_run();
  auto figures = flatten(r);
  const auto phases = testing::synthetic_phase_figures();
  figures.insert(figures.end(), phases.begin(), phases.end());
  const json expect = {{"min_busbw", {{{"op", "allreduce"}, {"bytes", 67108864}, {"ranks", 4}, {"gbps", 350}}}},
                       {"min_tflops", {{"bf16", 600}}}};
  const auto v = verdict_for(r, figures, expect);
  EXPECT_FALSE(v.passed);
  const auto* busbw = rule(v, "min busbw bytes=67108864;op=allreduce;ranks=4 >= 350 GB/s");
  ASSERT_NE(busbw, nullptr);
  EXPECT_EQ(busbw->result, RuleResult::fail);
  EXPECT_EQ(busbw->detail, "missed by collectives busbw bytes=67108864;op=allreduce;ranks=4 = 320 GB/s");
  EXPECT_EQ(rule(v, "min TFLOP/s bf16 >= 600")->result, RuleResult::pass);
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_NE(v.reasons.back().find("min busbw"), std::string::npos);
}

TEST(VerdictRules, GenericThresholdsAndMustPassChecks) {
  const auto r = testing::sample_run();
  const json expect = {
      {"thresholds", {{{"name", "smoke under 1 ms"}, {"phase", "env"}, {"metric", "smoke_allreduce_time"}, {"max", 0.001}}}},
      {"checks_must_pass", {"numa-binding"}},
      {"max_straggler_spread", 0.1}};
  const auto v = verdict_for(r, flatten(r), expect);
  EXPECT_EQ(rule(v, "smoke under 1 ms")->result, RuleResult::pass);
  EXPECT_EQ(rule(v, "check numa-binding passes")->result, RuleResult::fail);
  // One GPU rank beside a CPU rank: no spread between GPUs to measure.
  EXPECT_EQ(rule(v, "max straggler spread <= 0.1")->result, RuleResult::skip);
  EXPECT_FALSE(v.passed);
}

// A run of `ranks` ranks whose plan (the quick-cpu profile) ran env, collectives (allreduce at 8 and
// 32K) and train; figures of one rank are a local copy and DDP on one GPU.
RunReport planned_run(int ranks) {
  RunReport r;
  r.world_size = ranks;
  r.node_count = 1;
  r.phases_completed = {"env", "collectives", "train"};
  RunPlanRecord plan;
  plan.profile = "quick-cpu";
  plan.phases = r.phases_completed;
  plan.labels["collectives"] = {{"op", {"allreduce"}}, {"bytes", {"8", "32768"}}};
  plan.labels["train"] = {{"strategy", {"single", "ddp"}}, {"gpus", {"1", "2", "4"}}};
  r.plan = plan;
  return r;
}

std::vector<Figure> figures_of(int ranks) {
  const std::string n = std::to_string(ranks);
  return {{"collectives",
           "busbw",
           {{"op", "allreduce"}, {"bytes", "32768"}, {"ranks", n}, {"scope", "world"}},
           ranks == 1 ? 0.0 : 9.0,
           "GB/s",
           Better::higher},
          {"train", "scaling_efficiency", {{"strategy", "ddp"}, {"gpus", "1"}}, 0.8, "ratio", Better::higher}};
}

// The documented thresholds on a healthy one-GPU --quick run: what the run never measures is SKIP, not
// FAIL "not measured"; what it measures is judged.
TEST(VerdictRules, ThresholdsOnWhatTheRunNeverMeasuresSkip) {
  const auto r = planned_run(1);
  const json expect = {
      {"min_busbw", {{{"op", "allreduce"}, {"bytes", 1073741824}, {"gbps", 350}}, {{"op", "allreduce"}, {"gbps", 1}}}},
      {"min_scaling_efficiency", 0.9},
      {"max_straggler_spread", 0.05},
      {"thresholds",
       {{{"phase", "compute"}, {"metric", "tflops"}, {"min", 1}},
        {{"phase", "train"}, {"metric", "step_time"}, {"labels", {{"gpus", 8}}}, {"max", 1}}}}};
  const auto v = verdict_for(r, figures_of(1), expect);
  EXPECT_EQ(rule(v, "min busbw bytes=1073741824;op=allreduce >= 350 GB/s")->detail,
            "the quick-cpu plan measures collectives bytes 8, 32K, not 1G");
  EXPECT_EQ(rule(v, "min busbw op=allreduce >= 1 GB/s")->result, RuleResult::skip);
  EXPECT_EQ(rule(v, "min scaling efficiency >= 0.9")->result, RuleResult::skip);
  EXPECT_EQ(rule(v, "max straggler spread <= 0.05")->result, RuleResult::skip);
  EXPECT_EQ(rule(v, "compute tflops >= 1")->detail, "the command does not run phase compute");
  EXPECT_EQ(rule(v, "train step_time gpus=8 <= 1")->detail, "gpus 8: the job has 1 rank");
  EXPECT_TRUE(v.passed);
  for (const auto& line : v.reasons) EXPECT_EQ(line.find("SKIP"), std::string::npos) << line;
}

// The figures over several GPUs are judged, and one the run planned and lacks FAILs as not measured:
// never a PASS for work dropped on a broken node.
TEST(VerdictRules, ThresholdsTheRunShouldHaveMeasuredFail) {
  auto r = planned_run(4);
  const json expect = {{"min_busbw", {{{"op", "allreduce"}, {"bytes", 32768}, {"gbps", 10}}}},
                       {"min_scaling_efficiency", 0.9}};
  auto v = verdict_for(r, figures_of(4), expect);
  EXPECT_EQ(rule(v, "min busbw bytes=32768;op=allreduce >= 10 GB/s")->result, RuleResult::fail);
  EXPECT_EQ(rule(v, "min scaling efficiency >= 0.9")->result, RuleResult::fail) << "DDP over 4 GPUs is missing";
  r.phases_completed = {"env", "train"};
  r.phases_skipped = {{"collectives", "env check gpu-in-use on ranks 1 (see checks)"}};
  v = verdict_for(r, {}, expect);
  EXPECT_EQ(rule(v, "min busbw bytes=32768;op=allreduce >= 10 GB/s")->detail,
            "not measured: no figure matches this threshold, though the run's plan and shape make one; phase "
            "collectives was not run: env check gpu-in-use on ranks 1 (see checks)");
  // In the shared-GPU test layout a threshold on speed is not judged, one on correctness is.
  r.emulation = Emulation{1, true};
  v = verdict_for(r, figures_of(4),
                  {{"min_busbw", {{{"op", "allreduce"}, {"bytes", 32768}, {"gbps", 10}}}},
                   {"thresholds", {{{"phase", "collectives"}, {"metric", "wrong_elements"}, {"max", 0}}}}});
  EXPECT_EQ(rule(v, "min busbw bytes=32768;op=allreduce >= 10 GB/s")->result, RuleResult::skip);
  EXPECT_NE(rule(v, "min busbw bytes=32768;op=allreduce >= 10 GB/s")->detail.find("test layout"), std::string::npos);
  EXPECT_EQ(rule(v, "collectives wrong_elements <= 0")->result, RuleResult::fail);
  r.emulation.reset();
  // Without a plan (an older file) only the job's shape can rule a figure out.
  r.plan.reset();
  v = verdict_for(r, {}, {{"min_busbw", {{{"op", "allreduce"}, {"bytes", 1073741824}, {"gbps", 350}}}}});
  EXPECT_EQ(rule(v, "min busbw bytes=1073741824;op=allreduce >= 350 GB/s")->result, RuleResult::fail);
}

TEST(Expectations, MalformedFilesAreRejectedWithTheReason) {
  const auto message = [](const json& j) {
    try {
      parse_expectations(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(json::array()), "the expect file must hold a JSON object");
  EXPECT_NE(message({{"min_bussbw", 1}}).find("unknown key 'min_bussbw'"), std::string::npos);
  EXPECT_EQ(message({{"thresholds", {{{"metric", "busbw"}}}}}), "thresholds[0]: give \"min\" or \"max\"");
  EXPECT_EQ(message({{"min_tflops", {{"bf16", "fast"}}}}), "min_tflops.bf16 must be a number");
  EXPECT_EQ(message({{"min_busbw", {{{"op", "allreduce"}}}}}), "min_busbw[0]: \"gbps\" is required");
  EXPECT_EQ(message({{"max_straggler_spread", 0.1}}), "accepted");
}

}  // namespace
}  // namespace gpuscale::results
