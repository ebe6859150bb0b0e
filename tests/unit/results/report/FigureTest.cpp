#include "results/base/Figure.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "SampleRun.hpp"
#include "judge/VerdictRules.hpp"
#include "results/report/JsonReporter.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

TEST(Figure, EnvPhaseFlattensPerRankFiguresAndChecks) {
  const auto figures = flatten(testing::sample_run());
  std::size_t smoke = 0, memory = 0, checks = 0;
  for (const auto& f : figures) {
    smoke += f.metric == "smoke_allreduce_time";
    memory += f.metric == "gpu_memory_total";
    checks += f.phase == "checks";
  }
  EXPECT_EQ(smoke, 2u);
  EXPECT_EQ(memory, 1u);  // only rank 0 has a GPU
  EXPECT_EQ(checks, 1u);
  EXPECT_EQ(figure_key(figures.front()), "env/smoke_allreduce_time/rank=0");
}

TEST(Figure, JsonRoundTrip) {
  const Figure f{"collectives", "busbw", {{"op", "allreduce"}, {"bytes", "1024"}}, 12.5, "GB/s", Better::higher};
  const nlohmann::json j = f;
  EXPECT_EQ(j.at("better"), "higher");
  const auto back = j.get<Figure>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_TRUE(labels_match(back, {{"op", "allreduce"}}));
  EXPECT_FALSE(labels_match(back, {{"op", "allgather"}}));
}

TEST(RunReportJson, VerdictRulesAndTraceSpansSurviveARoundTrip) {
  auto r = testing::sample_run();
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  r.trace_spans.push_back({1, "comm", "bucket 0", 0.5, 0.25, {{"bytes", 1024}}, "ddp mlp bf16 2 GPUs"});
  const nlohmann::json j = r;
  const auto back = j.get<RunReport>();
  EXPECT_EQ(nlohmann::json(back), j);
  ASSERT_FALSE(back.verdict.rules.empty());
  EXPECT_EQ(back.verdict.rules.front().result, RuleResult::warn);
  ASSERT_EQ(back.trace_spans.size(), 1u);
  EXPECT_EQ(back.trace_spans[0].args["bytes"], 1024);
}

}  // namespace
}  // namespace gpuscale::results
