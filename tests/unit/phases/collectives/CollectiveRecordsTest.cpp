// The collectives record survives JSON, and the console table reads like nccl-tests'.
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "phases/collectives/CollectivesReporter.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

CollectivesRecord sample() {
  CollectivesRecord r;
  r.transport = "nccl";
  r.iterations = 20;
  r.warmup = 5;
  r.check_passes = 2;
  CollectiveSweep s;
  s.op = "allreduce";
  s.type = "float";
  s.redop = "sum";
  s.ranks = 2;
  s.group = "world";
  CollectiveRow row;
  row.size_bytes = 1 << 20;
  row.count = 1 << 18;
  row.out_of_place.measured = true;
  row.out_of_place.time_s = 10.5e-6;
  row.out_of_place.samples_s = {10e-6, 10.5e-6, 11e-6};
  row.out_of_place.iterations = summarize(row.out_of_place.samples_s);
  row.out_of_place.batch_time_s = 10.25e-6;
  row.out_of_place.algbw_gbps = 99.86;
  row.out_of_place.busbw_gbps = 99.86;
  row.out_of_place.wrong = 0;
  row.in_place = row.out_of_place;
  row.in_place.wrong.reset();
  row.nccl_algorithm = "RING/LL128";
  s.rows = {row};
  s.headline.peak_busbw_gbps = 99.86;
  s.headline.peak_size_bytes = 1 << 20;
  s.headline.latency_stream_s = 10.5e-6;
  s.headline.latency_graph_s = 4.25e-6;
  s.headline.latency_size_bytes = 1 << 20;
  s.headline.link_gbps = 478.125;
  s.headline.link = "NVLink4 x18";
  r.sweeps = {s};
  r.scaling = {{"world", 2, 1, "allreduce", 8, 12e-6, 0.0007, 0}};
  PairMatrix m;
  m.large_bytes = 64 << 20;
  m.small_bytes = 8;
  m.rounds = 1;
  m.threshold = 0.8;
  m.pairs = {{0, 1, "h:0", "h:1", true, 350.0, 9e-6}};
  r.pairs = m;
  return r;
}

TEST(CollectiveRecords, JsonRoundTrip) {
  const auto before = sample();
  RunReport report;
  report.collectives = before;
  const nlohmann::json j = report;
  ASSERT_TRUE(j.at("collectives").is_object());
  EXPECT_TRUE(j["collectives"]["sweeps"][0]["rows"][0]["in_place"]["wrong"].is_null());  // not checked != 0
  const auto after = j.get<RunReport>().collectives;
  ASSERT_TRUE(after);
  ASSERT_EQ(after->sweeps.size(), 1u);
  const auto& row = after->sweeps[0].rows[0];
  EXPECT_EQ(row.count, 1u << 18);
  EXPECT_EQ(row.out_of_place.samples_s, before.sweeps[0].rows[0].out_of_place.samples_s);
  EXPECT_EQ(row.out_of_place.wrong, std::optional<std::uint64_t>(0));
  EXPECT_DOUBLE_EQ(row.out_of_place.batch_time_s, 10.25e-6);
  EXPECT_FALSE(row.in_place.wrong);
  EXPECT_EQ(row.nccl_algorithm, "RING/LL128");
  EXPECT_DOUBLE_EQ(*after->sweeps[0].headline.link_gbps, 478.125);
  EXPECT_EQ(after->pairs->pairs[0].b_label, "h:1");
  EXPECT_EQ(after->scaling[0].group, "world");
  EXPECT_EQ(nlohmann::json(*after), nlohmann::json(before));
}

TEST(CollectiveRecords, RunReportWithoutCollectivesStaysNull) {
  RunReport report;
  const nlohmann::json j = report;
  EXPECT_TRUE(j.at("collectives").is_null());
  EXPECT_FALSE(j.get<RunReport>().collectives);
}

TEST(CollectivesReporter, ReadsLikeNcclTests) {
  std::ostringstream out;
  write_collectives(sample(), {}, true, out);
  const std::string text = out.str();
  for (const char* expected :
       {"size(B)", "count(elts)", "type", "redop", "root", "algbw(GB/s)", "busbw(GB/s)", "#wrong",
        "1048576  262144       float  sum    -1    10.50", "99.86", "N/A", "RING/LL128",
        "peak busbw 99.86 GB/s at 1 MiB", "latency at 1 MiB 10.50 us 4.25 us (CUDA graph)", "link NVLink4 x18 478.12 GB/s", "== Collectives: pairwise send/recv ==", "h:0", "350.00"})
    EXPECT_NE(text.find(expected), std::string::npos) << "missing '" << expected << "' in\n" << text;
}

// Past a few nodes the console keeps each op's headline; every size stays in the JSON and CSV.
TEST(CollectivesReporter, HeadlinesAloneWithoutPerSizeRows) {
  std::ostringstream out;
  write_collectives(sample(), {}, false, out);
  const std::string text = out.str();
  EXPECT_EQ(text.find("size(B)"), std::string::npos) << text;
  EXPECT_NE(text.find("peak busbw 99.86 GB/s at 1 MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("every size is in the JSON and CSV"), std::string::npos) << text;
}

TEST(CollectivesReporter, OneRankIsOneLineSayingNoLinkIsMeasured) {
  auto one = sample();
  std::ostringstream two_ranks;
  write_collectives(one, {}, true, two_ranks);
  EXPECT_EQ(two_ranks.str().find("no link measured"), std::string::npos);
  one.sweeps[0].ranks = 1;
  std::ostringstream out;
  write_collectives(one, {}, true, out);
  // One line, no per-size table: nothing crossed a link.
  EXPECT_EQ(out.str().find("  allreduce | 1 rank (world): a local copy, no link measured\n"), out.str().find("  allreduce"))
      << out.str();
  EXPECT_EQ(out.str().find("size(B)"), std::string::npos) << out.str();
}

TEST(CollectivesReporter, Units) {
  EXPECT_EQ(microseconds(12.346e-6), "12.35");
  EXPECT_EQ(microseconds(1234.5e-6), "1234.5");
  EXPECT_EQ(microseconds(0.0123), "12300");
  EXPECT_EQ(size_label(8), "8 B");
  EXPECT_EQ(size_label(256u << 20), "256 MiB");
  EXPECT_EQ(size_label(1000), "1000 B");
}

}  // namespace
}  // namespace gpuscale::results
