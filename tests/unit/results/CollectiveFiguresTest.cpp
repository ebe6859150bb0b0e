#include "results/models/CollectiveFigures.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "results/models/FigureNames.hpp"

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
  m.pairs.push_back(PairResult{0, 1, "h:0", "h:1", true, 350, 5e-6, false});
  r.pairs = m;
  return r;
}

const Figure* find(const std::vector<Figure>& figures, const std::string& metric) {
  const auto it = std::find_if(figures.begin(), figures.end(), [&](const Figure& f) { return f.metric == metric; });
  return it == figures.end() ? nullptr : &*it;
}

TEST(CollectiveFigures, BusbwCarriesTheLabelsTheChartsUse) {
  std::vector<Figure> figures;
  append_figures(std::optional<CollectivesRecord>(record_with_one_row(0)), figures);
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
  append_figures(std::optional<CollectivesRecord>(record_with_one_row(3)), figures);
  const auto* wrong = find(figures, names::kWrongElements);
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->value, 3);
}

TEST(CollectiveFigures, NoRecordNoFigures) {
  std::vector<Figure> figures;
  append_figures(std::optional<CollectivesRecord>(), figures);
  EXPECT_TRUE(figures.empty());
}

}  // namespace
}  // namespace gpuscale::results
