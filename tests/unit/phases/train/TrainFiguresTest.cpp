// The training phase's figures (phases/train/TrainFigures.hpp) from its records alone (its pure half,
// linked by itself): what CSV, HTML charts, compare and --expect read of a training run.
#include "phases/train/TrainFigures.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "results/base/FigureNames.hpp"

namespace gpuscale::results {
namespace {

TrainRecord ddp_record() {
  TrainRecord r;
  r.strategy = "ddp";
  r.model = "mlp";
  r.precision = "bf16";
  r.scaling = "weak";
  r.gpus = 2;
  r.grad_dtype = "bf16";
  r.optimizer_overlap = true;
  r.step_s.median = 1.4e-3;
  r.samples_per_s = 365000;
  r.efficiency = 0.74;
  r.compute_s = 0.94e-3;
  r.comm_s = 0.91e-3;
  r.exposed_comm_s = 0.46e-3;
  r.overlap_pct = 49;
  r.peak_memory_bytes = 1302ull << 20;
  for (int rank : {0, 1}) {
    TrainRankFigures k;
    k.rank = rank;
    k.step_s.median = rank ? 1.4e-3 : 1.38e-3;
    r.ranks.push_back(k);
  }
  return r;
}

const Figure* find(const std::vector<Figure>& figures, const char* metric, const Labels& has = {}) {
  const auto it = std::find_if(figures.begin(), figures.end(),
                               [&](const Figure& f) { return f.metric == metric && labels_match(f, has); });
  return it == figures.end() ? nullptr : &*it;
}

TEST(TrainFigures, EveryMeasuredFigureOfAConfigurationUnderItsLabels) {
  TrainResults results;
  results.records.push_back(ddp_record());
  std::vector<Figure> figures;
  append_figures(results, {}, figures);
  const Labels config{{names::kStrategy, "ddp"}, {names::kModel, "mlp"},   {names::kPrecision, "bf16"},
                      {names::kScaling, "weak"}, {names::kGpus, "2"}, {names::kOptions, "grad:bf16 opt-overlap"}};
  const auto* step = find(figures, names::kStepTime);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->labels, config);
  EXPECT_EQ(step->phase, phase::train);
  EXPECT_DOUBLE_EQ(step->value, 1.4e-3);
  EXPECT_EQ(step->better, Better::lower);
  const auto* efficiency = find(figures, names::kScalingEfficiency);
  ASSERT_NE(efficiency, nullptr);
  EXPECT_DOUBLE_EQ(efficiency->value, 0.74);
  EXPECT_EQ(efficiency->better, Better::higher);
  for (const char* metric : {names::kSamplesPerS, names::kComputeTime, names::kCommTime, names::kExposedCommTime,
                             names::kOverlap, names::kPeakMemory})
    EXPECT_NE(find(figures, metric, config), nullptr) << metric;
  const auto* rank0 = find(figures, names::kRankStepTime, {{names::kRank, "0"}});
  ASSERT_NE(rank0, nullptr);
  EXPECT_DOUBLE_EQ(rank0->value, 1.38e-3);
  EXPECT_NE(find(figures, names::kRankStepTime, {{names::kRank, "1"}}), nullptr);
  EXPECT_EQ(find(figures, names::kDpPhaseTime), nullptr);
}

TEST(TrainFigures, DpGetsItsPhasesAndWhatWasNotMeasuredOrRunGetsNothing) {
  TrainResults results;
  TrainRecord dp = ddp_record();
  dp.strategy = "dp";
  dp.grad_dtype = "fp32";
  dp.optimizer_overlap = false;
  dp.compute_s.reset();
  dp.comm_s.reset();
  dp.exposed_comm_s.reset();
  dp.overlap_pct.reset();
  dp.dp = DpPhases{};
  dp.dp->reduce_s = 1.5e-3;
  TrainRecord skipped = ddp_record();
  skipped.skipped_reason = "one GPU per rank";
  results.records = {dp, skipped};
  std::vector<Figure> figures;
  append_figures(results, {}, figures);
  const auto is_phase = [](const Figure& f) { return f.metric == names::kDpPhaseTime; };
  EXPECT_EQ(std::count_if(figures.begin(), figures.end(), is_phase), 8);
  const auto* reduce = find(figures, names::kDpPhaseTime, {{names::kDpPhase, "reduce"}});
  ASSERT_NE(reduce, nullptr);
  EXPECT_DOUBLE_EQ(reduce->value, 1.5e-3);
  EXPECT_EQ(reduce->labels.count(names::kOptions), 0u) << "every option at its default";
  EXPECT_EQ(find(figures, names::kComputeTime), nullptr);
  EXPECT_EQ(find(figures, names::kStepTime, {{names::kStrategy, "ddp"}}), nullptr) << "the skipped one";
}

}  // namespace
}  // namespace gpuscale::results
