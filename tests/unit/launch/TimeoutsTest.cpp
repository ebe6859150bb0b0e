#include "launch/Timeouts.hpp"

#include <cctype>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "launch/Cli.hpp"

namespace gpuscale::launch {
namespace {

TEST(Timeouts, DefaultsPerPhase) {
  const PhaseTimeouts t;
  EXPECT_DOUBLE_EQ(t.for_phase("env"), 120);
  EXPECT_DOUBLE_EQ(t.for_phase("compute"), 300);
  EXPECT_DOUBLE_EQ(t.for_phase("collectives"), 180);
  EXPECT_DOUBLE_EQ(t.for_phase("train"), 300);
  EXPECT_DOUBLE_EQ(t.for_phase("burn"), 120);
  EXPECT_DOUBLE_EQ(t.for_phase("links"), 120);
  EXPECT_EQ(describe(t), "env 120, links 120, compute 300, burn 120, collectives 180, train 300");
}

TEST(Timeouts, OutsideThePhasesIsBootstrap) {
  const auto t = parse_timeouts("env=7,train=9");
  EXPECT_DOUBLE_EQ(t.for_phase(""), 7);
  EXPECT_DOUBLE_EQ(t.for_phase("finish"), 7);
}

TEST(Timeouts, OneValueSetsEveryPhase) {
  const auto t = parse_timeouts("2.5");
  for (const char* phase : {"env", "compute", "collectives", "train"}) EXPECT_DOUBLE_EQ(t.for_phase(phase), 2.5);
}

TEST(Timeouts, PhaseItemsApplyLeftToRight) {
  const auto t = parse_timeouts("60,train=600,collectives=30");
  EXPECT_DOUBLE_EQ(t.for_phase("env"), 60);
  EXPECT_DOUBLE_EQ(t.for_phase("compute"), 60);
  EXPECT_DOUBLE_EQ(t.for_phase("collectives"), 30);
  EXPECT_DOUBLE_EQ(t.for_phase("train"), 600);
  const auto only = parse_timeouts("compute=1");
  EXPECT_DOUBLE_EQ(only.for_phase("compute"), 1);
  EXPECT_DOUBLE_EQ(only.for_phase("env"), PhaseTimeouts{}.for_phase("env"));  // the others keep their defaults
  EXPECT_DOUBLE_EQ(parse_timeouts("5,env=1,3").for_phase("env"), 3);
}

TEST(Timeouts, BadValuesAreOneLineNamingTheItem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "''"},           {"abc", "'abc'"},         {"0", "'0'"},
      {"-5", "'-5'"},       {"inf", "'inf'"},         {"nan", "'nan'"},
      {"1e999", "'1e999'"}, {"10,", "''"},            {"train=", "'train='"},
      {"gpu=5", "'gpu'"},   {"train=5s", "'train=5s'"}, {"=5", "''"},
      {"1e300", "'1e300'"}, {"train=604801", "'train=604801'"}};
  for (const auto& [text, named] : cases) {
    try {
      parse_timeouts(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const harness::UsageError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_NE(what.find("--timeout"), std::string::npos) << what;
      EXPECT_NE(what.find(named), std::string::npos) << text << " -> " << what;
    }
  }
}

// The bound is inclusive; the help text names it (CommandLineAndHelp).
TEST(Timeouts, AtMostAWeek) {
  EXPECT_DOUBLE_EQ(parse_timeouts("604800").for_phase("train"), kMaxTimeoutS);
  EXPECT_THROW(parse_timeouts("604800.5"), harness::UsageError);
}

TEST(Timeouts, CommandLineAndHelp) {
  const char* argv[] = {"gpuscale", "train", "--timeout", "train=42"};
  const auto inv = parse_command_line(4, argv);
  EXPECT_DOUBLE_EQ(inv.common.timeouts.for_phase("train"), 42);
  EXPECT_DOUBLE_EQ(inv.common.timeouts.for_phase("env"), 120);
  const char* bad[] = {"gpuscale", "env", "--timeout", "tpu=1"};
  EXPECT_THROW(parse_command_line(4, bad), harness::UsageError);
  const char* help[] = {"gpuscale", "env", "--help"};
  std::string text;  // the help wraps lines: compare with single spaces
  for (const char c : parse_command_line(3, help).help_text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!space) text += c;
    else if (!text.empty() && text.back() != ' ') text += ' ';
  }
  EXPECT_NE(text.find("(default env 120, links 120, compute 300, burn 120, collectives 180, train 300; at most 604800, a week)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace gpuscale::launch
