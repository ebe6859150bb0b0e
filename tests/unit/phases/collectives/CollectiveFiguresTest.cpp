#include "phases/collectives/CollectiveFigures.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Statistics.hpp"

namespace gpuscale::results {
namespace {

CollectivesRecord record_with_one_row(std::uint64_t wrong) {
  CollectiveSweep s;
  s.op = "allreduce";
  s.type = "float";
  s.ranks = 2;
  s.group = "world";
  CollectiveRow row;
  row.size_bytes = 1 << 20;
  row.out_of_place.measured = true;
  row.out_of_place.busbw_gbps = 300;
  row.out_of_place.time_s = 7e-6;
  row.out_of_place.wrong = wrong;
  s.rows.push_back(row);
  s.headline.peak_busbw_gbps = 300;
  s.headline.peak_percent_of_link = 62.5;
  CollectivesRecord r;
  r.sweeps.push_back(s);
  PairMatrix m;
  m.pairs.push_back(PairResult{0, 1, "h:0", "h:1", true, 350, 5e-6});
  r.pairs = m;
  return r;
}

const Figure* find(const std::vector<Figure>& figures, const std::string& metric) {
  const auto it = std::find_if(figures.begin(), figures.end(), [&](const Figure& f) { return f.metric == metric; });
  return it == figures.end() ? nullptr : &*it;
}

TEST(CollectiveFigures, BusbwCarriesTheLabelsTheChartsUse) {
  std::vector<Figure> figures;
  append_figures(std::optional<CollectivesRecord>(record_with_one_row(0)), {}, figures);
  const auto* busbw = find(figures, names::kBusBw);
  ASSERT_NE(busbw, nullptr);
  EXPECT_EQ(busbw->value, 300);
  EXPECT_EQ(busbw->labels.at(names::kBytes), "1048576");
  EXPECT_EQ(busbw->labels.at(names::kRanks), "2");
  EXPECT_EQ(busbw->labels.at(names::kOp), "allreduce");
  EXPECT_EQ(busbw->better, Better::higher);
  ASSERT_NE(find(figures, names::kLinkUse), nullptr);
  EXPECT_DOUBLE_EQ(find(figures, names::kLinkUse)->value, 0.625);
  EXPECT_EQ(std::count_if(figures.begin(), figures.end(), [](const Figure& f) { return f.metric == names::kPairBusBw; }), 2);
}

TEST(CollectiveFigures, WrongElementsBecomeAFigure) {
  std::vector<Figure> figures;
  append_figures(std::optional<CollectivesRecord>(record_with_one_row(3)), {}, figures);
  const auto* wrong = find(figures, names::kWrongElements);
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->value, 3);
}

TEST(CollectiveFigures, NoRecordNoFigures) {
  std::vector<Figure> figures;
  append_figures(std::optional<CollectivesRecord>(), {}, figures);
  EXPECT_TRUE(figures.empty());
}

// What compare and --baseline judge by (FigureNoise.hpp): the iterations' band carried to each speed
// figure, the time behind it, and over one rank a local copy; wrong elements stay judged on one rank.
TEST(CollectiveFigures, SpeedFiguresCarryTheirNoiseAndOneRankIsALocalCopy) {
  auto r = record_with_one_row(0);
  auto& t = r.sweeps[0].rows[0].out_of_place;
  t.time_s = 20e-6;
  t.samples_s = {18e-6, 19e-6, 20e-6, 21e-6, 22e-6};
  t.iterations = summarize(t.samples_s);  // p10 18.4 us, p90 21.6 us: a band of +-8% around 20 us
  std::vector<Figure> figures;
  append_figures(std::optional<CollectivesRecord>(r), {}, figures);
  const auto* busbw = find(figures, names::kBusBw);
  ASSERT_NE(busbw, nullptr);
  EXPECT_NEAR(busbw->spread, 300 * 0.08, 1e-9);
  EXPECT_DOUBLE_EQ(busbw->op_time_s, 20e-6);
  EXPECT_FALSE(busbw->local_copy);
  EXPECT_NEAR(find(figures, names::kTime)->spread, 20e-6 * 0.08, 1e-15);
  EXPECT_EQ(not_judged_reason(*busbw), "");

  r.sweeps[0].ranks = 1;
  r.sweeps[0].rows[0].out_of_place.wrong = 2;
  figures.clear();
  append_figures(std::optional<CollectivesRecord>(r), {}, figures);
  EXPECT_TRUE(find(figures, names::kBusBw)->local_copy);
  EXPECT_TRUE(find(figures, names::kPeakBusBw)->local_copy);
  EXPECT_EQ(not_judged_reason(*find(figures, names::kBusBw)), "one rank: a local copy");
  EXPECT_FALSE(find(figures, names::kWrongElements)->local_copy);

  r.sweeps[0].ranks = 2;
  r.sweeps[0].rows[0].out_of_place.time_s = 4e-6;
  figures.clear();
  append_figures(std::optional<CollectivesRecord>(r), {}, figures);
  EXPECT_EQ(not_judged_reason(*find(figures, names::kAlgBw)), "timed under 10 us (4.0 us)");
}

}  // namespace
}  // namespace gpuscale::results
