#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "results/AtomicFile.hpp"
#include "results/JsonReporter.hpp"
#include "results/RunReport.hpp"

namespace gpuscale::results {
namespace {

RunReport sample_report() {
  RunReport r;
  r.tool_version = "0.1.0";
  r.command_line = "gpuscale env --json x.json";
  r.start_time = "2026-11-29T00:00:00Z";
  r.world_size = 2;
  r.node_count = 1;
  for (int rank = 0; rank < 2; ++rank) {
    RankEnv e;
    e.rank = rank;
    e.world_size = 2;
    e.local_rank = rank;
    e.local_size = 2;
    e.host = "node1";
    e.backend = "cuda";
    GpuInfo g;
    g.cuda_index = rank;
    g.name = "NVIDIA H200";
    g.uuid = "GPU-" + std::to_string(rank);
    g.pci_bus_id = rank ? "0000:2a:00.0" : "0000:19:00.0";
    g.memory_total_bytes = 150000000000ull;
    g.temperature_c = 31u;
    g.power_draw_w = 120.5;
    g.nvlinks.push_back(NvLinkGroup{rank ? "0000:19:00.0" : "0000:2a:00.0", 18, 4});
    e.gpu = g;
    e.versions.nccl_library = 22803;
    e.variables["NCCL_DEBUG"] = "INFO";
    e.smoke.ran = true;
    e.smoke.passed = true;
    r.ranks.push_back(e);
  }
  r.checks.push_back(Check{"numa-binding", Severity::warning, {1}, "bind it"});
  r.verdict = verdict_from_checks(r.checks);
  return r;
}

TEST(RunReportJson, RoundTripKeepsEveryField) {
  const auto original = sample_report();
  const nlohmann::json j = original;
  EXPECT_EQ(j.at("schema_version"), kSchemaVersion);
  EXPECT_EQ(j.at("ranks").size(), 2u);
  EXPECT_TRUE(j.at("ranks")[0].at("gpu").at("sm_clock_mhz").is_null());  // unknown stays unknown
  const auto back = j.get<RunReport>();
  EXPECT_EQ(nlohmann::json(back), j);
  ASSERT_TRUE(back.ranks[1].gpu);
  EXPECT_EQ(back.ranks[1].gpu->nvlinks.at(0).link_count, 18);
  EXPECT_EQ(*back.ranks[0].gpu->temperature_c, 31u);
  EXPECT_FALSE(back.ranks[0].gpu->sm_clock_mhz.has_value());
}

TEST(RunReportJson, RejectsOtherSchemaVersions) {
  nlohmann::json j = sample_report();
  j["schema_version"] = kSchemaVersion + 1;
  EXPECT_THROW(j.get<RunReport>(), std::runtime_error);
  j.erase("schema_version");
  EXPECT_THROW(j.get<RunReport>(), std::runtime_error);
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

TEST(RunReportJson, VerdictFailsOnErrorChecksOnly) {
  std::vector<Check> checks = {{"a", Severity::warning, {}, "w"}, {"b", Severity::info, {}, "i"}};
  EXPECT_TRUE(verdict_from_checks(checks).passed);
  checks.push_back({"duplicate-gpu", Severity::error, {0, 1}, "shared"});
  const auto v = verdict_from_checks(checks);
  EXPECT_FALSE(v.passed);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "duplicate-gpu: shared");
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
