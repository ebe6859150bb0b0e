#include <fstream>
#include <sstream>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/VerdictRules.hpp"
#include "results/report/JsonReporter.hpp"
#include "results/report/RunFigures.hpp"
#include "results/schema/AtomicFile.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

// The reporters' sample run, plus the fields it leaves out that the JSON must carry too.
RunReport sample_report() {
  RunReport r = testing::sample_run();
  GpuInfo& g = *r.ranks[0].gpu;
  g.uuid = "GPU-0";
  g.nvlinks.push_back(NvLinkGroup{"0000:2a:00.0", 18, 4});
  r.ranks[0].versions.nccl_library = 22803;
  r.ranks[0].variables["NCCL_DEBUG"] = "INFO";
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  return r;
}

TEST(RunReportJson, RoundTripKeepsEveryField) {
  const auto original = sample_report();
  const nlohmann::json j = original;
  EXPECT_EQ(j.at("schema_version"), kSchemaVersion);
  EXPECT_EQ(j.at("ranks").size(), 2u);
  EXPECT_TRUE(j.at("ranks")[0].at("gpu").at("memory_clock_mhz").is_null());  // unknown stays unknown
  const auto back = j.get<RunReport>();
  EXPECT_EQ(nlohmann::json(back), j);
  ASSERT_TRUE(back.ranks[0].gpu);
  EXPECT_FALSE(back.ranks[1].gpu);  // the cpu rank
  EXPECT_EQ(back.ranks[0].gpu->nvlinks.at(0).link_count, 18);
  EXPECT_EQ(back.ranks[0].variables.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(*back.ranks[0].gpu->temperature_c, 31u);
  EXPECT_FALSE(back.ranks[0].gpu->memory_clock_mhz.has_value());
}

// The judge's suspects are written in the isolation's object, as collectives.isolation.suspects, by both
// writers, and both readers take them back out into the report's; the record holds none.
TEST(RunReportJson, TheSuspectsSurviveBothWritersAndReaders) {
  auto r = sample_report();
  r.collectives.emplace().isolation.emplace().node_hosts = {"n0"};
  Suspect s;
  s.node = 0, s.host = "n0", s.score = 1, s.rounds_failed = 3, s.rounds_counted = 3, s.by_node_local = true;
  s.evidence = "3 of 3 rounds";
  r.suspects.ranked = {s};
  const nlohmann::json j = r;
  const auto& iso = j.at("collectives").at("isolation");
  EXPECT_EQ(iso.at("suspects")[0].at("host"), "n0");
  EXPECT_EQ(iso.at("suspects")[0].at("by_node_local"), true);
  EXPECT_FALSE(iso.contains("suspects_not_rejudged"));
  const auto same = [&](const SuspectList& back) {
    ASSERT_EQ(back.ranked.size(), 1u);
    EXPECT_EQ(back.ranked[0].host, "n0");
    EXPECT_EQ(back.ranked[0].evidence, "3 of 3 rounds");
    EXPECT_EQ(back.not_rejudged, r.suspects.not_rejudged);
  };
  same(j.get<RunReport>().suspects);
  const auto text = report_text(r);
  EXPECT_EQ(nlohmann::json::parse(text), j) << "the streaming writer writes the same suspects";
  same(parse_report_text(text, "run.json").suspects);
  r.suspects.not_rejudged = true;
  EXPECT_EQ(nlohmann::json(r).at("collectives").at("isolation").at("suspects_not_rejudged"), true);
  same(parse_report_text(report_text(r), "run.json").suspects);
  r.suspects = {};
  EXPECT_TRUE(nlohmann::json(r).at("collectives").at("isolation").at("suspects").empty()) << "always written";
  r.collectives.reset();
  EXPECT_TRUE(nlohmann::json(r).at("collectives").is_null()) << "no isolation object made for the suspects";
}

// The judge's marks of every phase are written in the records they mark, by the whole-document writer
// and by the streaming one alike, and both readers take them back out; the records hold none.
TEST(RunReportJson, TheMarksOfEveryPhaseSurviveBothWritersAndReaders) {
  auto r = sample_report();
  r.burn.resize(2);
  r.links.resize(1);
  r.compute.resize(1);
  r.collectives.emplace();
  r.collectives->sweeps.resize(2);
  r.collectives->scaling.resize(1);
  r.collectives->pairs.emplace();
  r.collectives->pairs->pairs.resize(2);
  r.train.records.resize(1);
  r.train.records[0].ranks.resize(3);
  const std::vector<RecordMark> marks = {
      record_mark(BurnMark::slow, 1),
      record_mark(BurnMark::floor, 0, 0, 554.1),
      record_mark(LinksMark::hbm_under_floor, 0),
      record_mark(LinksMark::h2d_floor, 0, 0, 44.1),
      record_mark(ComputeMark::beside_tenant, 0),
      record_mark(CollectivesMark::sweep_beside_tenant, 1),
      record_mark(CollectivesMark::scaling_beside_tenant, 0),
      record_mark(CollectivesMark::pair_slow, 1),
      record_mark(TrainMark::straggler, 0, 2),
      record_mark(TrainMark::beside_tenant, 0),
  };
  r.marks = RecordMarks(marks);
  const auto same = [&](const RecordMarks& back) {
    const auto key = [](const RecordMark& m) { return std::tuple(m.phase, m.kind, m.index, m.rank_index, m.value); };
    const auto want = r.marks.all(), got = back.all();
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(key(got[i]), key(want[i])) << i;
  };
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("burn")[1].at("slow"), true);
  EXPECT_EQ(j.at("burn")[0].at("slow"), false);
  EXPECT_EQ(j.at("collectives").at("pairs").at("pairs")[1].at("slow"), true);
  EXPECT_EQ(j.at("train").at("records")[0].at("ranks")[2].at("straggler"), true);
  EXPECT_FALSE(j.at("collectives").at("sweeps")[0].contains("beside_tenant"));
  same(j.get<RunReport>().marks);
  const auto text = report_text(r);
  EXPECT_EQ(nlohmann::json::parse(text), j) << "the streaming writer writes the same marks";
  same(parse_report_text(text, "run.json").marks);
  RunReport unmarked = r;
  unmarked.marks = {};
  EXPECT_TRUE(parse_report_text(report_text(unmarked), "run.json").marks.empty()) << "false and null mark nothing";
}

TEST(RunReportJson, RejectsOtherSchemaVersions) {
  nlohmann::json j = sample_report();
  j["schema_version"] = kSchemaVersion + 1;
  EXPECT_THROW(j.get<RunReport>(), std::runtime_error);
  j.erase("schema_version");
  EXPECT_THROW(j.get<RunReport>(), std::runtime_error);
}

TEST(RunReportJson, CompleteAndOutputSetRoundTripAndVersionOneReadsAsComplete) {
  auto r = sample_report();
  r.complete = false;
  r.output_set = "20261130T000000Z-42-1";
  r.verdict.passed = false;
  r.verdict.incomplete = true;
  nlohmann::json j = r;
  EXPECT_EQ(j.at("verdict").at("result"), "INCOMPLETE");
  auto back = j.get<RunReport>();
  EXPECT_FALSE(back.complete);
  EXPECT_TRUE(back.verdict.incomplete);
  EXPECT_EQ(back.output_set, "20261130T000000Z-42-1");
  j.erase("complete");
  EXPECT_THROW(j.get<RunReport>(), std::runtime_error);  // required from version 2 on
  j["schema_version"] = 1;  // files written before the field existed
  j.erase("output_set");
  back = j.get<RunReport>();
  EXPECT_TRUE(back.complete);
  EXPECT_EQ(nlohmann::json(back).at("schema_version"), kSchemaVersion);
}

TEST(RunReportJson, MalformedFieldIsAClearError) {
  nlohmann::json j = sample_report();
  j["ranks"][0]["rank"] = "zero";
  try {
    j.get<RunReport>();
    FAIL() << "accepted a malformed report";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("malformed run report"), std::string::npos);
  }
}

// The writer streams the per-rank arrays element by element: the text is still the one document's.
TEST(RunReportJson, StreamedTextIsTheWholeDocumentsDump) {
  auto r = testing::sample_fleet_run();  // ranks and burn records
  r.trace_spans = sample_report().trace_spans;
  ASSERT_FALSE(r.burn.empty());
  ASSERT_FALSE(r.ranks.empty());
  const auto whole = nlohmann::json(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
  EXPECT_EQ(report_text(r), whole);
  RunReport empty;  // every per-rank array empty
  EXPECT_EQ(report_text(empty), nlohmann::json(empty).dump(2) + '\n');
}

// The reader turns per-rank elements into records as it parses; a malformed one is still refused
// with the file named, and the records read are the written ones.
TEST(RunReportJson, PerRankElementsReadAsTheyAreParsed) {
  const auto r = testing::sample_fleet_run();
  const auto back = parse_report_text(report_text(r), "run.json");
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(r));
  auto j = nlohmann::json(r);
  j["burn"].push_back(j["burn"][0]);
  j["burn"].back()["rank"] = "one";
  try {
    parse_report_text(j.dump(), "run.json");
    FAIL() << "accepted a malformed burn record";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("run.json: malformed run report"), std::string::npos) << e.what();
  }
}

// Pair labels are names made from the ranks (GpuLabels.hpp): a file written when they were host:GPU
// is read with today's host#LOCAL_RANK, so its pair figures match a new run's.
TEST(RunReportJson, PairLabelsAreReadAsTodaysNames) {
  auto r = testing::sample_run();
  r.collectives.emplace();
  r.collectives->pairs.emplace();
  r.collectives->pairs->pairs.push_back(PairResult{0, 1, "node1:0", "node1:cpu1"});
  const auto back = parse_report_text(report_text(r), "old.json");
  ASSERT_TRUE(back.collectives && back.collectives->pairs);
  EXPECT_EQ(back.collectives->pairs->pairs[0].a_label, "node1#0");
  EXPECT_EQ(back.collectives->pairs->pairs[0].b_label, "node1#1");
}

TEST(AtomicFile, WritesWholeFileAndReadsBack) {
  const std::string path = ::testing::TempDir() + "/report.json";
  std::ostringstream text;
  JsonReporter().write(sample_report(), text);
  write_file_atomically(path, text.str());
  const auto back = read_report_file(path);
  EXPECT_EQ(back.ranks.size(), 2u);
}

TEST(AtomicFile, UnwritableFolderIsRefusedBeforeWriting) {
  EXPECT_THROW(check_writable("/nonexistent-folder/x.json"), std::runtime_error);
  EXPECT_THROW(write_file_atomically("/nonexistent-folder/x.json", "{}"), std::runtime_error);
  EXPECT_THROW(check_writable(::testing::TempDir()), std::runtime_error);  // a directory
}

TEST(AtomicFile, MalformedFileIsAClearError) {
  const std::string path = ::testing::TempDir() + "/bad.json";
  std::ofstream(path) << "{ not json";
  EXPECT_THROW(read_report_file(path), std::runtime_error);
  EXPECT_THROW(read_report_file("/nonexistent.json"), std::runtime_error);
}

}  // namespace
}  // namespace gpuscale::results
