#include "phases/train/TrainRecord.hpp"

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "phases/train/TrainTable.hpp"
#include "results/base/FigureNames.hpp"
#include "results/report/RunFigures.hpp"
#include "results/schema/RunReport.hpp"
#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

TrainRecord record(std::string strategy, int gpus, double samples_per_s, std::vector<double> rank_medians) {
  TrainRecord r;
  r.strategy = std::move(strategy);
  r.model = "mlp";
  r.precision = "bf16";
  r.scaling = "weak";
  r.gpus = gpus;
  r.batch_per_gpu = 256;
  r.global_batch = 256 * gpus;
  r.samples_per_s = samples_per_s;
  r.step_s = summarize(std::vector<double>{0.1});
  for (std::size_t i = 0; i < rank_medians.size(); ++i) {
    TrainRankFigures f;
    f.rank = static_cast<int>(i);
    f.step_samples_s = {rank_medians[i]};
    f.step_s = summarize(f.step_samples_s);
    r.ranks.push_back(f);
  }
  return r;
}

TEST(TrainRecord, WeakScalingEfficiencyFromSingleBaseline) {
  TrainResults results;
  results.records = {record("single", 1, 1000, {0.1}), record("ddp", 2, 1800, {0.1, 0.1}),
                     record("ddp", 4, 3000, {0.1, 0.1, 0.1, 0.1})};
  finish_train_results(results);
  const auto checks = train_checks_marked(results, 0.10);
  EXPECT_TRUE(checks.empty());
  EXPECT_DOUBLE_EQ(*results.records[1].efficiency, 0.9);
  EXPECT_DOUBLE_EQ(*results.records[2].efficiency, 0.75);
  EXPECT_DOUBLE_EQ(*results.records[0].efficiency, 1.0);
}

TEST(TrainRecord, StragglerAndFailedCheckBecomeChecks) {
  TrainResults results;
  results.records = {record("ddp", 3, 1000, {0.10, 0.10, 0.13})};
  results.verifications = {{"ddp-gradients-bitwise-equal", "mlp fp32", false, 1, 0, "2 ranks"},
                    {"ddp-matches-single", "mlp fp32", true, 1e-7, 2e-5, ""}};
  finish_train_results(results);
  RecordMarks marks;
  const auto checks = train_checks_marked(results, 0.10, &marks);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].id, "train-straggler");
  EXPECT_EQ(checks[0].ranks, std::vector<int>{2});
  EXPECT_TRUE(marks.has(TrainMark::straggler, 0, 2));
  EXPECT_FALSE(marks.has(TrainMark::straggler, 0, 0));
  EXPECT_EQ(checks[1].id, "train-ddp-gradients-bitwise-equal");
  EXPECT_EQ(checks[1].severity, Severity::error);
}

TEST(TrainRecord, JsonRoundTripKeepsMissingFiguresMissing) {
  TrainResults results;
  auto r = record("dp", 2, 500, {0.2, 0.2});
  r.dp = DpPhases{1, 2, 3, 4, 5, 6, 7, 8};
  r.overlap_pct = 42;
  results.records = {r};
  const nlohmann::json j = results;
  EXPECT_TRUE(j["records"][0]["efficiency"].is_null());
  const auto back = j.get<TrainResults>();
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_FALSE(back.records[0].efficiency);
  EXPECT_DOUBLE_EQ(*back.records[0].overlap_pct, 42);
  EXPECT_DOUBLE_EQ(back.records[0].dp->reduce_s, 7);
  EXPECT_EQ(nlohmann::json(back), j);
}

// The DDP communicator's configuration survives JSON and names itself in the table's config column;
// a report written before these fields existed reads back with plain buffers and NCCL's CTAs.
TEST(TrainRecord, CommConfigRoundTripsAndShows) {
  TrainResults results;
  auto r = record("ddp", 2, 500, {0.2, 0.2});
  r.comm_buffers = "window";
  r.comm_ctas = 64;
  r.comm_ctas_trials = {{64, 0.0023}, {0, 0.0026}};
  r.comm_sm_margin = 32;
  results.records = {r};
  nlohmann::json j = results;
  const auto back = j.get<TrainResults>().records.at(0);
  EXPECT_EQ(back.comm_buffers, "window");
  EXPECT_EQ(back.comm_ctas, 64);
  EXPECT_EQ(back.comm_ctas_trials, r.comm_ctas_trials);
  EXPECT_EQ(back.comm_sm_margin, 32);
  std::ostringstream out;
  write_train_tables(results, {}, true, out);
  EXPECT_NE(out.str().find("ddp mlp bf16 x2 weak buf:window ctas:64(auto) sm-margin:32"), std::string::npos)
      << out.str();
  for (const char* key : {"comm_buffers", "comm_ctas", "comm_ctas_trials", "comm_sm_margin"})
    j["records"][0].erase(key);
  const auto old = j.get<TrainResults>().records.at(0);
  EXPECT_EQ(old.comm_buffers, "plain");
  EXPECT_EQ(old.comm_ctas, 0);
  EXPECT_TRUE(old.comm_ctas_trials.empty());
  EXPECT_EQ(old.comm_sm_margin, 0);
}

TEST(TrainTable, ShowsScalingDpPhasesAndStragglers) {
  TrainResults results;
  auto r = record("dp", 2, 500, {0.2, 0.3});
  r.dp = DpPhases{0.001, 0, 0, 0, 0, 0, 0.004, 0};
  results.records = {r};
  results.verifications = {{"dp-matches-single", "mlp bf16", false, 0.5, 0.02, ""}};
  const RecordMarks marks(std::vector{results::record_mark(TrainMark::straggler, 0, 1)});
  std::ostringstream out;
  write_train_tables(results, marks, true, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("== Training: correctness =="), std::string::npos);
  EXPECT_NE(text.find("FAIL"), std::string::npos);
  EXPECT_NE(text.find("DP-style phases"), std::string::npos);
  EXPECT_NE(text.find("STRAGGLER"), std::string::npos);
  EXPECT_NE(text.find("dp mlp bf16 x2 weak"), std::string::npos);
}

// The run's figures carry training's, so that CSV, HTML, compare and --expect see it.
TEST(TrainRecord, FlattenCarriesItsFigures) {
  RunReport report;
  report.train.records.push_back(record("ddp", 2, 1000, {0.1, 0.1}));
  bool found = false;
  for (const auto& f : flatten(report))
    found = found || (f.phase == phase::train && f.metric == names::kStepTime &&
                      label_or_empty(f, names::kStrategy) == "ddp");
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace gpuscale::results
