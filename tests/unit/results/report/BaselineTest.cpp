#include "results/report/Baseline.hpp"

#include <functional>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/BaselineRules.hpp"
#include "judge/Findings.hpp"
#include "judge/VerdictRules.hpp"
#include "results/base/CheckIds.hpp"
#include "results/report/ToleranceOverrides.hpp"

namespace gpuscale::results {
namespace {

using judge::judge_against_baseline;
using judge::kMaxFindingDetails;

using nlohmann::json;

// Two CPU ranks on one node whose smoke allreduce took `op_s` (per rank); each call is another run
// (its own start time).
RunReport cpu_run(std::vector<double> op_s) {
  static int runs_made = 0;
  RunReport r;
  r.start_time = "2026-01-01T00:00:" + std::to_string(10 + runs_made++ % 50) + "Z";
  r.world_size = static_cast<int>(op_s.size());
  r.node_count = 1;
  r.phases_completed = {"env"};
  for (std::size_t i = 0; i < op_s.size(); ++i) {
    RankEnv e;
    e.rank = static_cast<int>(i);
    e.world_size = r.world_size;
    e.local_rank = e.rank;
    e.local_size = r.world_size;
    e.host = "node" + std::to_string(i);
    e.backend = "cpu";
    e.cpu_model = "Test CPU";
    e.smoke.ran = true;
    e.smoke.op_s = op_s[i];
    e.smoke.init_s = 0.5;
    r.ranks.push_back(e);
  }
  return r;
}

const BaselineFigure& entry(const Baseline& b, const std::string& metric) {
  for (const auto& f : b.groups.at(0).figures)
    if (f.metric == metric) return f;
  throw std::runtime_error("no " + metric);
}

TEST(Baseline, PoolsPerRankFiguresOverRanksAndRuns) {
  const auto b = make_baseline({cpu_run({1.0, 1.2}), cpu_run({1.1, 1.0}), cpu_run({4.0, 1.1})}, {"a", "b", "c"});
  ASSERT_EQ(b.groups.size(), 1u);
  EXPECT_EQ(b.groups[0].shape, (MachineShape{"cpu (Test CPU)", 2}));
  EXPECT_EQ(b.groups[0].runs, 3u);
  const auto& smoke = entry(b, "smoke_allreduce_time");
  EXPECT_TRUE(smoke.labels.empty());
  EXPECT_EQ(smoke.values, 6u);
  EXPECT_EQ(smoke.runs, 3u);
  EXPECT_DOUBLE_EQ(smoke.median, 1.1);   // of 1, 1, 1.1, 1.1, 1.2, 4
  EXPECT_NEAR(smoke.mad, 0.1, 1e-12);    // deviations 0.1, 0.1, 0, 0, 0.1, 2.9
  EXPECT_DOUBLE_EQ(smoke.min, 1.0);
  EXPECT_DOUBLE_EQ(smoke.max, 4.0);
  EXPECT_EQ(smoke.better, Better::lower);
  const auto& passed = b.groups[0].checks_passed;
  EXPECT_NE(std::find(passed.begin(), passed.end(), "duplicate-gpu"), passed.end());
  EXPECT_EQ(std::find(passed.begin(), passed.end(), "baseline-drop"), passed.end());
}

TEST(Baseline, ChecksFailedInAnyRunAreNotPassed) {
  auto warned = cpu_run({1, 1});
  warned.checks.push_back({"numa-binding", Severity::warning, {0}, "not bound"});
  auto informed = cpu_run({1, 1});
  informed.checks.push_back({"gpu-power-capped", Severity::info, {}, "capped"});
  const auto b = make_baseline({cpu_run({1, 1}), warned, informed}, {});
  const auto& passed = b.groups[0].checks_passed;
  EXPECT_EQ(std::find(passed.begin(), passed.end(), "numa-binding"), passed.end());
  EXPECT_NE(std::find(passed.begin(), passed.end(), "gpu-power-capped"), passed.end());
}

TEST(Baseline, RefusesIncompleteRunsAndMixedModels) {
  auto unfinished = cpu_run({1, 1});
  unfinished.complete = false;
  EXPECT_THROW(make_baseline({unfinished}, {"u.json"}), std::invalid_argument);
  auto interrupted = cpu_run({1, 1});
  interrupted.interrupted = true;
  EXPECT_THROW(make_baseline({interrupted}, {"i.json"}), std::invalid_argument);
  auto mixed = cpu_run({1, 1});
  mixed.ranks[1].cpu_model = "Other CPU";
  try {
    make_baseline({mixed}, {"m.json"});
    FAIL() << "mixed models accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "m.json mixes GPU models (cpu (Other CPU), cpu (Test CPU)); a baseline is per model: give runs of one model");
  }
  EXPECT_THROW(make_baseline({}, {}), std::invalid_argument);
}

// 200 copies of one run are one run: counted 200 times they would fake a spread of nothing.
TEST(Baseline, RefusesACopyOfARun) {
  const auto run = cpu_run({1, 1});
  try {
    make_baseline({run, cpu_run({1, 1}), run}, {"a.json", "b.json", "copy.json"});
    FAIL() << "a copy of a run was counted again";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("copy.json is the same run as a.json"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(make_baseline({run, cpu_run({1, 1})}, {"a.json", "b.json"}));
}

TEST(Baseline, KeepsShapesApart) {
  const auto b = make_baseline({cpu_run({1, 1}), cpu_run({1, 1, 1, 1})}, {});
  ASSERT_EQ(b.groups.size(), 2u);
  EXPECT_EQ(b.groups[1].shape.ranks_per_node, 4);
  EXPECT_NE(find_group(b, {"cpu (Test CPU)", 4}), nullptr);
  EXPECT_EQ(find_group(b, {"cpu (Test CPU)", 8}), nullptr);
}

TEST(Baseline, JsonRoundTripAndVersion) {
  const auto b = make_baseline({cpu_run({1.0, 1.2}), cpu_run({1.1, 1.0})}, {"a", "b"});
  const json j = b;
  EXPECT_EQ(j.at("baseline_version"), kBaselineVersion);
  const auto back = j.get<Baseline>();
  EXPECT_EQ(json(back), j);
  auto other = j;
  other["baseline_version"] = kBaselineVersion + 1;
  EXPECT_THROW(other.get<Baseline>(), std::invalid_argument);
  auto broken = j;
  broken["groups"][0]["figures"][0]["median"] = "fast";
  EXPECT_THROW(broken.get<Baseline>(), std::invalid_argument);
  EXPECT_THROW(json::object().get<Baseline>(), std::invalid_argument);
}

// Whether `mutate` applied to a valid baseline's JSON makes the reader refuse it with a line containing `part`.
bool reader_refuses(const std::function<void(json&)>& mutate, const std::string& part) {
  json j = make_baseline({cpu_run({1.0, 1.2}), cpu_run({1.1, 1.0})}, {"a", "b"});
  mutate(j);
  try {
    j.get<Baseline>();
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(part) != std::string::npos) return true;
    ADD_FAILURE() << "refused with: " << e.what();
    return false;
  }
  ADD_FAILURE() << "accepted: " << j.dump().substr(0, 300);
  return false;
}

// A baseline that judges nothing, or by values no run can have, is bad input, not a pass.
TEST(BaselineReader, RefusesBaselinesThatJudgeNothingOrCannotBe) {
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"] = json::array(); }, "\"groups\" is empty"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["figures"] = json::array(); }, "no figures"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["runs"] = 0; }, "\"runs\" must be an integer >= 1"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["ranks_per_node"] = -3; }, "\"ranks_per_node\""));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["checks_passed"].push_back("no-such-check"); },
                             "unknown check id 'no-such-check'"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"].push_back(j["groups"][0]); }, "two groups for"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["figures"].push_back(j["groups"][0]["figures"][0]); },
                             "twice"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["figures"][0]["min"] = -1; }, "is never negative"));
  EXPECT_TRUE(reader_refuses([](json& j) { j["groups"][0]["figures"][0]["values"] = -1; }, "\"values\""));
  EXPECT_TRUE(reader_refuses(
      [](json& j) {
        j["groups"][0]["figures"][0]["runs"] = 9;
        j["groups"][0]["figures"][0]["values"] = 9;
      },
      "more runs than its group"));
}

// An entry that no run's figure can match would judge nothing: refused, naming what is wrong.
TEST(BaselineReader, RefusesEntriesThatNameNothing) {
  const auto first = [](json& j) -> json& { return j["groups"][0]["figures"][0]; };
  EXPECT_TRUE(reader_refuses([&](json& j) { first(j)["phase"] = "warmup"; }, "unknown phase 'warmup'"));
  EXPECT_TRUE(reader_refuses([&](json& j) { first(j)["phase"] = "compute"; },
                             "smoke_allreduce_time is a figure of env, not of compute"));
  EXPECT_TRUE(reader_refuses([&](json& j) { first(j)["metric"] = "smoke_alreduce_time"; },
                             "unknown metric 'smoke_alreduce_time'"));
  EXPECT_TRUE(reader_refuses([&](json& j) { first(j)["labels"]["size"] = "8"; },
                             "label 'size' is not one of env smoke_allreduce_time's (rank)"));
  EXPECT_TRUE(reader_refuses([&](json& j) { first(j)["unit"] = "ms"; }, "unit 'ms' is not env smoke_allreduce_time's (s)"));
  EXPECT_TRUE(reader_refuses([&](json& j) { first(j)["phase"] = "checks"; }, "a check's own figure is no baseline"));
}

// A pair figure of a baseline made before pair labels named local ranks.
json with_pair(int baseline_version, const std::string& src, const std::string& dst) {
  json j = make_baseline({cpu_run({1.0, 1.2}), cpu_run({1.1, 1.0})}, {"a", "b"});
  j["baseline_version"] = baseline_version;
  if (baseline_version == 1) j.erase("label_version");
  j["groups"][0]["figures"].push_back({{"phase", "collectives"}, {"metric", "pair_busbw"},
                                       {"labels", {{"src", src}, {"dst", dst}}}, {"unit", "GB/s"},
                                       {"better", "higher"}, {"median", 10.0}, {"mad", 0.0}, {"min", 10.0},
                                       {"max", 10.0}, {"values", 2}, {"runs", 2}});
  return j;
}

Labels pair_labels(const Baseline& b) {
  for (const auto& f : b.groups.at(0).figures)
    if (f.metric == "pair_busbw") return f.labels;
  throw std::runtime_error("no pair figure");
}

// Pair labels changed from host:cpuL / host:CUDA_INDEX to host#L under one tool_version: a version-1
// baseline's old labels are translated where the old one names one GPU, refused where it does not.
TEST(BaselineReader, TranslatesOldPairLabelsOrRefusesThem) {
  const json current = make_baseline({cpu_run({1.0, 1.2}), cpu_run({1.1, 1.0})}, {"a", "b"});
  EXPECT_EQ(current.at("baseline_version"), 2);
  EXPECT_EQ(current.at("label_version"), kLabelVersion);
  EXPECT_EQ(pair_labels(with_pair(1, "vm:cpu0", "vm:cpu1").get<Baseline>()), (Labels{{"src", "vm#0"}, {"dst", "vm#1"}}));
  // A version-1 file made after the change already holds the new labels: kept.
  EXPECT_EQ(pair_labels(with_pair(1, "vm/n1#0", "vm/n0#1").get<Baseline>()),
            (Labels{{"src", "vm/n1#0"}, {"dst", "vm/n0#1"}}));
  EXPECT_EQ(pair_labels(with_pair(2, "vm#0", "vm#1").get<Baseline>()), (Labels{{"src", "vm#0"}, {"dst", "vm#1"}}));
  const auto refusal = [](const json& j) {
    try {
      j.get<Baseline>();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal(with_pair(1, "gpu7:0", "gpu7:1")).find("names a GPU by its CUDA index"), std::string::npos);
  EXPECT_NE(refusal(with_pair(1, "vm:cpu0", "vm:cpu0")).find("names one GPU twice"), std::string::npos);
  auto newer = with_pair(2, "vm#0", "vm#1");
  newer["label_version"] = kLabelVersion + 1;
  EXPECT_NE(refusal(newer).find("label_version 3 is not supported (this gpuscale reads 1 to 2)"), std::string::npos);
  newer.erase("label_version");
  EXPECT_NE(refusal(newer).find("label_version absent is not supported"), std::string::npos);
  auto contradictory = with_pair(1, "vm:cpu0", "vm:cpu1");
  contradictory["label_version"] = 2;
  EXPECT_NE(refusal(contradictory).find("baseline_version 1 has no label_version"), std::string::npos);
  newer["baseline_version"] = 3;
  EXPECT_NE(refusal(newer).find("baseline_version 3 is not supported (this gpuscale reads 1 to 2)"), std::string::npos);
}

TEST(ToleranceOverrides, KeysThatNameNothingAreRefused) {
  ToleranceOverrides o;
  const auto refusal = [&](const std::string& text) {
    try {
      add_tolerance_override(text, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal("compute/busbw=0.1").find("busbw is a figure of collectives, not of compute"), std::string::npos);
  EXPECT_NE(refusal("collectives/busbw/size=8=0.1").find("label 'size' is not one of collectives busbw's"),
            std::string::npos);
  EXPECT_NE(refusal("warmup/busbw=0.1").find("unknown phase 'warmup'"), std::string::npos);
  EXPECT_NE(refusal("collectives/busbw/bytes8=0.1").find("labels are KEY=VALUE"), std::string::npos);
  EXPECT_EQ(refusal("collectives/busbw/bytes=8;op=allreduce=0.1"), "accepted");
  EXPECT_EQ(refusal("collectives/pair_busbw/dst=vm/n1#0;src=vm/n0#1=0.1"), "accepted");  // '/' in a value
}

// A baseline of one group holding `figures`, made by 3 runs, with `passed` checks.
Baseline baseline_of(std::vector<BaselineFigure> figures, std::vector<std::string> passed = {}) {
  Baseline b;
  b.groups.push_back({{"cpu (Test CPU)", 2}, 3, std::move(figures), std::move(passed)});
  return b;
}

Figure smoke(int rank, double value) {
  return {"env", "smoke_allreduce_time", {{"rank", std::to_string(rank)}}, value, "s", Better::lower};
}

const BaselineFigure kSmoke{"env", "smoke_allreduce_time", {}, "s", Better::lower, 1.0, 0, 1.0, 1.0, 6, 3};

TEST(BaselineRules, DropFlagsTheWorseDirectionPastTolerance) {
  const auto run = cpu_run({1, 1});
  auto j = judge_against_baseline(run, {smoke(0, 1.04), smoke(1, 0.5)}, baseline_of({kSmoke}), {});
  EXPECT_TRUE(j.findings.empty()) << j.findings[0].message;
  ASSERT_FALSE(j.rules.empty());
  EXPECT_EQ(j.rules[0].name, "baseline-drop");
  EXPECT_EQ(j.rules[0].result, RuleResult::pass);

  j = judge_against_baseline(run, {smoke(0, 1.04), smoke(1, 1.2)}, baseline_of({kSmoke}), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].id, check_ids::kBaselineDrop);
  EXPECT_EQ(j.findings[0].severity, Severity::error);
  EXPECT_EQ(j.findings[0].ranks, std::vector<int>{1});
  EXPECT_EQ(j.rules[0].name, "baseline-drop env smoke_allreduce_time");
  EXPECT_EQ(j.rules[0].result, RuleResult::fail);

  // The same rise within a tolerance given for the figure passes.
  ToleranceOverrides loose{{"smoke_allreduce_time", 0.25}};
  EXPECT_TRUE(judge_against_baseline(run, {smoke(0, 1.2)}, baseline_of({kSmoke}), loose).findings.empty());
  // Without a direction a figure never drops.
  auto undirected = kSmoke;
  undirected.better = Better::none;
  EXPECT_TRUE(judge_against_baseline(run, {smoke(0, 9)}, baseline_of({undirected}), {}).findings.empty());
}

TEST(BaselineRules, MissingOnlyForFiguresEveryRunMeasuredInPhasesThatRan) {
  auto run = cpu_run({1, 1});
  auto j = judge_against_baseline(run, {smoke(0, 1)}, baseline_of({kSmoke}), {});
  EXPECT_TRUE(j.findings.empty());
  j = judge_against_baseline(run, {}, baseline_of({kSmoke}), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].id, check_ids::kBaselineMissing);
  auto sometimes = kSmoke;
  sometimes.runs = 2;  // one baseline run lacked it too
  EXPECT_TRUE(judge_against_baseline(run, {}, baseline_of({sometimes}), {}).findings.empty());
  run.phases_completed = {};  // env did not run: its figures are not judged
  EXPECT_TRUE(judge_against_baseline(run, {}, baseline_of({kSmoke}), {}).findings.empty());
}

TEST(BaselineRules, MissingMachineShape) {
  const auto j = judge_against_baseline(cpu_run({1, 1, 1, 1}), {}, baseline_of({kSmoke}), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].id, check_ids::kBaselineMissing);
  EXPECT_EQ(j.findings[0].message,
            "the baseline has no figures for cpu (Test CPU), 4 ranks per node (it has: cpu (Test CPU), 2 ranks per node)");
}

TEST(BaselineRules, NewFailureOnlyForChecksThatAlwaysPassed) {
  auto run = cpu_run({1, 1});
  run.checks.push_back({"numa-binding", Severity::warning, {1}, "rank 1 is not bound"});
  auto j = judge_against_baseline(run, {smoke(0, 1)}, baseline_of({kSmoke}, {"duplicate-gpu"}), {});
  EXPECT_TRUE(j.findings.empty());
  j = judge_against_baseline(run, {smoke(0, 1)}, baseline_of({kSmoke}, {"numa-binding"}), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].id, check_ids::kBaselineNewFailure);
  EXPECT_EQ(j.findings[0].ranks, std::vector<int>{1});
  run.checks.back().severity = Severity::info;
  EXPECT_TRUE(judge_against_baseline(run, {smoke(0, 1)}, baseline_of({kSmoke}, {"numa-binding"}), {}).findings.empty());
}

// A baseline of a thousand figures that all dropped: one finding and one verdict line, not a thousand.
TEST(BaselineRules, FindingsAggregateIntoOneCheckAndOneLinePerRule) {
  std::vector<BaselineFigure> entries;
  std::vector<Figure> figures;
  for (int i = 0; i < 1000; ++i) {
    auto b = kSmoke;
    b.labels = {{"bytes", std::to_string(i)}};
    entries.push_back(b);
    figures.push_back({"env", "smoke_allreduce_time", {{"bytes", std::to_string(i)}, {"rank", "1"}}, 2.0, "s",
                       Better::lower});
  }
  const auto j = judge_against_baseline(cpu_run({1, 1}), figures, baseline_of(entries), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].id, check_ids::kBaselineDrop);
  EXPECT_EQ(j.findings[0].count, 1000);
  EXPECT_EQ(j.findings[0].ranks, std::vector<int>{1});
  EXPECT_EQ(j.findings[0].details.size(), kMaxFindingDetails);
  ASSERT_EQ(j.rules.size(), 3u);  // drop, missing, new failure: one line each
  EXPECT_EQ(j.rules[0].name, "baseline-drop x1000");
  EXPECT_NE(j.rules[0].detail.find("and 997 more"), std::string::npos) << j.rules[0].detail;
}

// A one-rank collective copies its own memory and a sub-10-us time is launch noise: never a drop.
TEST(BaselineRules, LocalCopiesAndMicrosecondTimesAreNotJudged) {
  auto run = cpu_run({1, 1});
  run.phases_completed = {"env", "collectives"};
  const BaselineFigure busbw{"collectives", "busbw", {{"op", "broadcast"}}, "GB/s", Better::higher, 100, 0, 100, 100, 6, 3};
  const BaselineFigure latency{"collectives", "latency", {{"op", "allreduce"}}, "s", Better::lower, 5e-6, 0, 5e-6, 5e-6, 6, 3};
  Figure copy{"collectives", "busbw", {{"op", "broadcast"}}, 10, "GB/s", Better::higher};
  copy.local_copy = true;
  const Figure slower{"collectives", "latency", {{"op", "allreduce"}}, 9e-6, "s", Better::lower};
  auto j = judge_against_baseline(run, {copy, slower}, baseline_of({busbw, latency}), {});
  EXPECT_TRUE(j.findings.empty()) << j.findings[0].message;
  EXPECT_NE(j.rules[0].detail.find("2 not judged (one-rank local copies, times under 10 us)"), std::string::npos)
      << j.rules[0].detail;
  copy.local_copy = false;  // the same drop over two ranks is one
  j = judge_against_baseline(run, {copy, slower}, baseline_of({busbw, latency}), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.findings[0].id, check_ids::kBaselineDrop);
}

// Against a median of 0 no percentage means anything: the line says so in words, never "inf%".
TEST(BaselineRules, ChangeFromAZeroMedianIsInWords) {
  const BaselineFigure zero{"env", "smoke_allreduce_time", {}, "s", Better::lower, 0, 0, 0, 0, 6, 3};
  const auto j = judge_against_baseline(cpu_run({1, 1}), {smoke(0, 0.5)}, baseline_of({zero}), {});
  ASSERT_EQ(j.findings.size(), 1u);
  EXPECT_EQ(j.rules[0].detail.find("inf"), std::string::npos) << j.rules[0].detail;
  EXPECT_NE(j.rules[0].detail.find("above the baseline median 0 s (a change from 0 has no percentage)"),
            std::string::npos)
      << j.rules[0].detail;
}

TEST(BaselineRules, GoldenVerdict) {
  auto run = cpu_run({1, 1});
  run.phases_completed = {"env", "compute"};
  run.checks.push_back({"numa-binding", Severity::warning, {1}, "rank 1 is not bound"});
  const BaselineFigure linear{"compute", "tflops", {{"layer", "linear"}}, "TFLOP/s", Better::higher, 2.0, 0.01, 1.9,
                              2.1, 6, 3};
  const BaselineFigure conv{"compute", "tflops", {{"layer", "conv"}}, "TFLOP/s", Better::higher, 1.0, 0, 1.0, 1.0,
                            6, 3};
  const std::vector<Figure> figures = {
      smoke(0, 1.01), smoke(1, 0.99),
      {"compute", "tflops", {{"layer", "linear"}, {"rank", "0"}}, 2.0, "TFLOP/s", Better::higher},
      {"compute", "tflops", {{"layer", "linear"}, {"rank", "1"}}, 1.8, "TFLOP/s", Better::higher}};
  const auto j = judge_against_baseline(run, figures, baseline_of({kSmoke, linear, conv}, {"numa-binding"}), {});
  run.checks.insert(run.checks.end(), j.findings.begin(), j.findings.end());  // as apply_verdict does
  const auto v = judge::evaluate_verdict(run, figures, {}, j.rules);
  std::string text;
  for (const auto& r : v.rules) text += std::string(to_string(r.result)) + "  " + r.name + "  (" + r.detail + ")\n";
  EXPECT_EQ(text,
            "WARN  no error checks  (warnings: numa-binding)\n"
            "FAIL  baseline-drop compute tflops layer=linear  (measured 1.8 TFLOP/s on rank 1 (node1), 10.0% below the "
            "baseline median 2 TFLOP/s (tolerance 5.0%, 3 runs); rank 1 (node1))\n"
            "FAIL  baseline-missing compute tflops layer=conv  (not measured; every baseline run measured it (median 1 "
            "TFLOP/s))\n"
            "FAIL  baseline-new-failure numa-binding  (warning on rank 1 (node1), raised in none of the 3 baseline runs: "
            "rank 1 is not bound)\n");
  EXPECT_FALSE(v.passed);
}

}  // namespace
}  // namespace gpuscale::results
