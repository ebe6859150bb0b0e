#include <gtest/gtest.h>

#include "results/JsonReporter.hpp"
#include "results/RunReport.hpp"

namespace gpuscale::results {
namespace {

TEST(RunFailureJson, AbsentUnlessTheRunEndedEarly) {
  RunReport report;
  EXPECT_EQ(nlohmann::json(report).count("failure"), 0u);
  EXPECT_FALSE(parse_report_text(report_text(report), "x").failure.has_value());
}

TEST(RunFailureJson, RoundTrips) {
  RunReport report;
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
  RunReport report;
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

}  // namespace
}  // namespace gpuscale::results
