// Links's figures from its records alone (its pure half, linked by itself): the judge's marks reach the
// figure they are about, and only that one.
#include "phases/links/LinksTable.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "results/base/FigureNames.hpp"

namespace gpuscale::results {
namespace {

CopyFigure copy(const char* direction, const char* memory, const char* mode, std::uint64_t bytes, double gbps) {
  return {direction, memory, mode, bytes, {bytes / (gbps * 1e9)}, gbps};
}

const Figure* find(const std::vector<Figure>& figures, const std::string& metric, const std::string& key,
                   const std::string& value, std::uint64_t bytes = 0) {
  for (const auto& f : figures) {
    if (f.metric != metric || label_or_empty(f, key) != value) continue;
    if (bytes && label_or_empty(f, names::kBytes) != std::to_string(bytes)) continue;
    return &f;
  }
  return nullptr;
}

TEST(LinksFigures, UnderFloorMarksOnlyTheCopyTheFloorJudged) {
  LinksRecord r;
  r.rank = 3;
  r.copies = {copy("h2d", "pinned", "solo", 1 << 20, 20), copy("h2d", "pinned", "solo", 1ull << 30, 26),
              copy("d2h", "pinned", "solo", 1ull << 30, 52), copy("h2d", "pageable", "solo", 1ull << 30, 10)};
  r.hbm = {{"copy", 1ull << 32, {0.001}, 4000}, {"triad", 1ull << 32, {0.001}, 4100}};
  const RecordMarks marks(
      std::vector{record_mark(LinksMark::h2d_under_floor, 0), record_mark(LinksMark::hbm_under_floor, 0)});
  std::vector<Figure> figures;
  append_figures({r}, marks, figures);
  ASSERT_FALSE(figures.empty());
  int under = 0;
  for (const auto& f : figures) under += f.under_floor ? 1 : 0;
  EXPECT_EQ(under, 2) << "the largest pinned solo h2d copy and the device copy";
  const auto* largest = find(figures, names::kHostCopyBw, names::kDirection, "h2d", 1ull << 30);
  ASSERT_NE(largest, nullptr);
  EXPECT_EQ(label_or_empty(*largest, names::kMemory), "pinned");
  EXPECT_TRUE(largest->under_floor);
  EXPECT_FALSE(find(figures, names::kHostCopyBw, names::kDirection, "d2h")->under_floor);
  EXPECT_TRUE(find(figures, names::kHbmBw, names::kKernel, "copy")->under_floor);
  EXPECT_FALSE(find(figures, names::kHbmBw, names::kKernel, "triad")->under_floor);
  EXPECT_EQ(label_or_empty(figures.front(), names::kRank), "3");
}

TEST(LinksFigures, ARecordBesideATenantMarksEveryFigureOfIt) {
  LinksRecord alone, beside;
  alone.rank = 0;
  beside.rank = 1;
  alone.copies = beside.copies = {copy("h2d", "pinned", "solo", 1ull << 30, 55)};
  std::vector<Figure> figures;
  append_figures({alone, beside}, RecordMarks(std::vector{record_mark(LinksMark::beside_tenant, 1)}), figures);
  for (const auto& f : figures) EXPECT_EQ(f.beside_tenant, label_or_empty(f, names::kRank) == "1") << f.metric;
}

}  // namespace
}  // namespace gpuscale::results
