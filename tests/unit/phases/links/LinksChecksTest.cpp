// The links phase's rules on synthetic records, each on its pass and fail side, and the record's JSON
// round trip.
#include "phases/links/LinksChecks.hpp"

#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "results/base/GpuPeak.hpp"
#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

CopyFigure copy(const std::string& direction, double gbps, const std::string& memory = "pinned",
                const std::string& mode = "solo") {
  return {direction, memory, mode, 1ull << 30, {0.02}, gbps};
}

// A healthy H200 on a gen5 x16 link with two active NVLinks.
LinksRecord links_gpu(int rank, double h2d = 55, double d2h = 55, double hbm = 4270) {
  LinksRecord r;
  r.rank = rank;
  r.node = rank / 8;
  r.host = "node" + std::to_string(r.node);
  r.gpu = "NVIDIA H200";
  r.copies = {copy("h2d", h2d), copy("d2h", d2h), copy("h2d", 9, "pageable")};
  r.hbm = {{"copy", 8ull << 30, {0.002}, hbm}};
  r.hbm_peak_gbps = peak_memory_gbps(r.gpu);
  r.pcie = {5, 16, 5, 16, 10};
  r.nvlinks = {{0, true, true, {0, 0, 0, 0}}, {1, true, true, {0, 0, 0, 0}}};
  return r;
}

std::vector<Check> links_with_id(const std::vector<Check>& checks, const std::string& id) {
  std::vector<Check> out;
  std::copy_if(checks.begin(), checks.end(), std::back_inserter(out), [&](const Check& c) { return c.id == id; });
  return out;
}

TEST(LinksChecks, HealthyGpusRaiseNothing) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1), links_gpu(2), links_gpu(3)};
  EXPECT_TRUE(links_checks_marked(records, 0.10).empty());
}

TEST(LinksChecks, H2dBelowTheNodeMedianIsSlow) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1), links_gpu(2, 40)};
  RecordMarks marks;
  const auto slow = links_with_id(links_checks_marked(records, 0.10, &marks), "h2d-slow");
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].ranks, std::vector<int>{2});
  EXPECT_NE(slow[0].message.find("pinned h2d 40.0 GB/s"), std::string::npos);
  EXPECT_NE(slow[0].message.find("NUMA node"), std::string::npos);
  EXPECT_TRUE(marks.has(LinksMark::h2d_slow, 2));
  EXPECT_FALSE(marks.has(LinksMark::h2d_slow, 0));
}

TEST(LinksChecks, H2dWithinTheThresholdPasses) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1), links_gpu(2, 51)};  // 7% below
  EXPECT_TRUE(links_with_id(links_checks_marked(records, 0.10), "h2d-slow").empty());
}

TEST(LinksChecks, GpusOfOtherNodesAreNotCompared) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(8, 40)};  // one GPU per node: no median to compare with
  EXPECT_TRUE(links_with_id(links_checks_marked(records, 0.10), "h2d-slow").empty());
}

// A lone GPU has no median: its floors (judge/FloorChecks.hpp, GpuReferenceTest) judge it, not these rules.
TEST(LinksChecks, ALoneGpuIsLeftToItsFloors) {
  std::vector<LinksRecord> records = {links_gpu(0, 55, 30, 3300)};
  EXPECT_TRUE(links_checks_marked(records, 0.10).empty());
}

TEST(LinksChecks, CpuRecordsAreNotJudgedForSpeed) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1, 5), links_gpu(2)};
  for (auto& r : records) r.gpu = "cpu";
  EXPECT_TRUE(links_checks_marked(records, 0.10).empty());
}

TEST(LinksChecks, HbmBelowTheMedianIsSlow) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1), links_gpu(2, 55, 55, 3500)};
  RecordMarks marks;
  const auto slow = links_with_id(links_checks_marked(records, 0.10, &marks), "hbm-slow");
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].ranks, std::vector<int>{2});
  EXPECT_EQ(slow[0].severity, Severity::warning);
  EXPECT_TRUE(marks.has(LinksMark::hbm_slow, 2));
}

TEST(LinksChecks, PcieBelowItsMaximumUnderLoadIsDowntrained) {
  std::vector<LinksRecord> records = {links_gpu(0)};
  records[0].pcie.width = 8;
  const auto down = links_with_id(links_checks_marked(records, 0.10), "pcie-downtrained");
  ASSERT_EQ(down.size(), 1u);
  EXPECT_NE(down[0].message.find("gen5 x8"), std::string::npos);
  records[0].pcie.width = 16;
  records[0].pcie.gen = 4;
  EXPECT_EQ(links_with_id(links_checks_marked(records, 0.10), "pcie-downtrained").size(), 1u);
  records[0].pcie.gen.reset();  // never sampled: nothing to judge
  EXPECT_TRUE(links_with_id(links_checks_marked(records, 0.10), "pcie-downtrained").empty());
}

TEST(LinksChecks, AnInactiveOrLostNvlinkIsDown) {
  std::vector<LinksRecord> records = {links_gpu(0)};
  records[0].nvlinks[1].active_before = records[0].nvlinks[1].active_after = false;
  auto down = links_with_id(links_checks_marked(records, 0.10), "nvlink-down");
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(down[0].severity, Severity::error);
  EXPECT_NE(down[0].message.find("NVLink 1 inactive"), std::string::npos);

  records[0].nvlinks[1].active_before = true;  // up before, down after
  down = links_with_id(links_checks_marked(records, 0.10), "nvlink-down");
  ASSERT_EQ(down.size(), 1u);
  EXPECT_NE(down[0].message.find("went down"), std::string::npos);
}

TEST(LinksChecks, NoActiveNvlinkAtAllIsNoFabricNotAFault) {
  std::vector<LinksRecord> records = {links_gpu(0)};
  for (auto& l : records[0].nvlinks) l.active_before = l.active_after = false;
  EXPECT_TRUE(links_with_id(links_checks_marked(records, 0.10), "nvlink-down").empty());
}

TEST(LinksChecks, GrowingNvlinkCountersAreErrors) {
  std::vector<LinksRecord> records = {links_gpu(0)};
  records[0].nvlinks[0].errors.crc_flit = 3;
  auto errors = links_with_id(links_checks_marked(records, 0.10), "nvlink-errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].severity, Severity::warning);
  records[0].nvlinks[1].errors.recovery = 1;
  errors = links_with_id(links_checks_marked(records, 0.10), "nvlink-errors");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].severity, Severity::error);
  EXPECT_NE(errors[0].message.find("links 0,1"), std::string::npos);
}

TEST(LinksChecks, AnXidFailsTheGpu) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1)};
  records[1].xids = {79};
  const auto xid = links_with_id(links_checks_marked(records, 0.10), "gpu-xid");
  ASSERT_EQ(xid.size(), 1u);
  EXPECT_EQ(xid[0].severity, Severity::error);
  EXPECT_EQ(xid[0].ranks, std::vector<int>{1});
  EXPECT_NE(xid[0].message.find("XID 79"), std::string::npos);
}

TEST(LinksChecks, AnUnreadableCounterIsSaidOnceForEveryRank) {
  std::vector<LinksRecord> records = {links_gpu(0), links_gpu(1)};
  records[0].unreadable = {"XID events: not supported"};
  records[1].unreadable = {"XID events: not supported"};
  const auto checks = links_checks_marked(records, 0.10);
  const auto notes = links_with_id(checks, "links-unreadable");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].severity, Severity::info);
  EXPECT_EQ(notes[0].ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(checks.size(), 1u);
}

TEST(LinksRecord, JsonRoundTripKeepsEveryFigure) {
  LinksRecord r = links_gpu(3);
  r.xids = {48};
  r.unreadable = {"NVLink error counters: not supported"};
  r.nvlinks[0].errors.replay.reset();
  const auto back = nlohmann::json(r).get<LinksRecord>();
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(r));
  EXPECT_FALSE(back.nvlinks[0].errors.replay.has_value());
  EXPECT_EQ(back.copies.size(), 3u);
}

TEST(GpuPeak, HbmPeaksOfKnownModels) {
  EXPECT_EQ(peak_memory_gbps("NVIDIA H200"), 4800);
  EXPECT_EQ(peak_memory_gbps("NVIDIA H100 80GB HBM3"), 3350);
  EXPECT_EQ(peak_memory_gbps("NVIDIA H100 PCIe"), 2000);
  EXPECT_EQ(peak_memory_gbps("NVIDIA A100-SXM4-80GB"), 2039);
  EXPECT_EQ(peak_memory_gbps("NVIDIA A100-SXM4-40GB"), 1555);
  EXPECT_FALSE(peak_memory_gbps("cpu").has_value());
}

}  // namespace
}  // namespace gpuscale::results
