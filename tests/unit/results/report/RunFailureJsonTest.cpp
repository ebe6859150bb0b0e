#include <gtest/gtest.h>

#include "results/report/JsonReporter.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

// A report of a job of 4 ranks on one node, the least a reader takes (RunConsistency.hpp: a world of
// at least one rank, and ranks named by the failure within it).
RunReport four_rank_job() {
  RunReport report;
  report.world_size = 4;
  report.node_count = 1;
  return report;
}

TEST(RunFailureJson, AbsentUnlessTheRunEndedEarly) {
  const RunReport report = four_rank_job();
  EXPECT_EQ(nlohmann::json(report).count("failure"), 0u);
  EXPECT_FALSE(parse_report_text(report_text(report), "x").failure.has_value());
}

TEST(RunFailureJson, RoundTrips) {
  RunReport report = four_rank_job();
  report.interrupted = true;
  report.failure = RunFailure{4, "[rank 0 host a] interrupted by SIGTERM (phase env)", 0, {1, 3}};
  const auto back = parse_report_text(report_text(report), "x");
  ASSERT_TRUE(back.failure.has_value());
  EXPECT_EQ(back.failure->exit_code, 4);
  EXPECT_EQ(back.failure->message, report.failure->message);
  EXPECT_EQ(back.failure->ranks_not_responding, (std::vector<int>{1, 3}));
  EXPECT_TRUE(back.interrupted);
}

TEST(RunFailureJson, InvalidUtf8IsReplacedNotThrown) {
  RunReport report = four_rank_job();
  report.command_line = "gpuscale env --json \xff\xfe.json";
  std::string text;
  ASSERT_NO_THROW(text = report_text(report));
  EXPECT_NE(parse_report_text(text, "x").command_line.find("\xef\xbf\xbd"), std::string::npos);
}

TEST(RunFailureJson, BadDocumentsNameTheSource) {
  for (const char* text : {"", "{", "[]", "{\"schema_version\": 1}", "{\"schema_version\": \"1\"}", "nul"}) {
    try {
      parse_report_text(text, "run.json");
      FAIL() << "accepted: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("run.json: ", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(read_report_file("/nonexistent/run.json"), std::runtime_error);
  EXPECT_THROW(read_report_file("/"), std::runtime_error);
}

// Fuzzer findings: a float in an integer field was undefined behaviour; a wrapped schema version was
// read as version 1.
TEST(RunFailureJson, FuzzFindingsAreRefused) {
  const std::string valid = report_text(four_rank_job());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = valid;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  EXPECT_NO_THROW(parse_report_text(valid, "x"));
  EXPECT_THROW(parse_report_text(with("\"size\": 4", "\"size\": 1e300"), "x"), std::runtime_error);
  EXPECT_THROW(parse_report_text(with("\"size\": 4", "\"size\": -5.5"), "x"), std::runtime_error);
  const std::string version = "\"schema_version\": " + std::to_string(kSchemaVersion);
  EXPECT_THROW(parse_report_text(with(version, "\"schema_version\": " + std::to_string(4294967296 + kSchemaVersion)), "x"),
               std::runtime_error);  // 2^32 + the version
  EXPECT_NO_THROW(parse_report_text(with("\"elapsed_s\": 0.0", "\"elapsed_s\": 12.5"), "x"));
  // Large integral doubles (FLOP counts, byte figures) are legitimate and read back exactly.
  const auto big = parse_report_text(with("\"elapsed_s\": 0.0", "\"elapsed_s\": 1099511627776.0"), "x");
  EXPECT_DOUBLE_EQ(big.elapsed_s, 1099511627776.0);
  EXPECT_THROW(parse_report_text(with("\"elapsed_s\": 0.0", "\"elapsed_s\": 3000000000.5"), "x"), std::runtime_error);
  EXPECT_THROW(parse_report_text(std::string(100000, '[') + std::string(100000, ']'), "x"), std::runtime_error);
}

}  // namespace
}  // namespace gpuscale::results
