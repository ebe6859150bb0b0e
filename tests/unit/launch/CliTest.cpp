#include "launch/Cli.hpp"

#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "launch/Commands.hpp"

namespace gpuscale::launch {
namespace {

Invocation parse(std::vector<const char*> args) {
  args.insert(args.begin(), "gpuscale");
  return parse_command_line(static_cast<int>(args.size()), args.data());
}

TEST(Cli, DefaultCommandIsRun) {
  EXPECT_EQ(parse({}).command, "run");
  EXPECT_EQ(parse({"--quick"}).command, "run");
  EXPECT_TRUE(parse({"--quick"}).common.quick);
}

TEST(Cli, EnvWithCommonOptions) {
  const auto inv = parse({"env", "--json", "out.json", "--prom", "out.prom", "--prom-dir", "nodes", "--device", "cpu",
                          "--timeout", "30"});
  EXPECT_EQ(inv.command, "env");
  EXPECT_EQ(inv.common.json_path, "out.json");
  EXPECT_EQ(inv.common.prom_path, "out.prom");
  EXPECT_EQ(inv.common.prom_dir, "nodes");
  EXPECT_EQ(inv.common.device, "cpu");
  EXPECT_DOUBLE_EQ(inv.common.timeouts.for_phase("env"), 30);
  EXPECT_DOUBLE_EQ(inv.common.timeouts.for_phase("train"), 30);
}

TEST(Cli, AnOptionOfOneValueGivenTwiceIsRefusedNotTheLastKept) {
  for (const auto& args : std::vector<std::vector<const char*>>{
           {"env", "--json", "a.json", "--json", "b.json"},
           {"env", "--prom", "a.prom", "--csv", "x.csv", "--prom", "b.prom"},
           {"collectives", "-b", "8", "--minbytes", "16"},
           {"env", "--device", "cpu", "--device", "cuda"},
           {"env", "--timeout", "5", "--timeout", "10"}}) {
    try {
      parse(args);
      ADD_FAILURE() << args[1] << " twice was accepted";
    } catch (const harness::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(" given 2 times ("), std::string::npos) << e.what();
    }
  }
  try {
    parse({"env", "--json", "a.json", "--json", "b.json"});
  } catch (const harness::UsageError& e) {
    EXPECT_STREQ(e.what(), "gpuscale env: --json given 2 times (a.json, b.json); it takes one value, give it once");
  }
  // Lists and flags may repeat.
  EXPECT_NO_THROW(parse({"env", "--quiet", "--quiet"}));
  EXPECT_NO_THROW(parse({"report", "a.json", "--baseline", "b.json", "--baseline-tolerance", "x=0.1",
                         "--baseline-tolerance", "y=0.2"}));
}

TEST(Cli, HelpAndVersion) {
  const auto help = parse({"env", "--help"});
  EXPECT_TRUE(help.show_help);
  EXPECT_NE(help.help_text.find("Examples:"), std::string::npos);
  EXPECT_NE(help.help_text.find("mpirun -np 2 gpuscale env --json env.json"), std::string::npos);
  EXPECT_TRUE(parse({"--version"}).show_version);
}

TEST(Cli, BadInputIsOneUsageError) {
  EXPECT_THROW(parse({"frobnicate"}), harness::UsageError);
  EXPECT_THROW(parse({"env", "--no-such-option"}), harness::UsageError);
  EXPECT_THROW(parse({"env", "--timeout", "abc"}), harness::UsageError);
  EXPECT_THROW(parse({"env", "--timeout", "0"}), harness::UsageError);
  EXPECT_THROW(parse({"env", "--timeout", "-5"}), harness::UsageError);
  EXPECT_THROW(parse({"env", "--device", "tpu"}), harness::UsageError);
  EXPECT_THROW(parse({"env", "stray"}), harness::UsageError);
  try {
    parse({"env", "--no-such-option"});
  } catch (const harness::UsageError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("no-such-option"), std::string::npos);
    EXPECT_EQ(e.exit_code(), harness::ExitCode::usage);
  }
}

// The table is the whole truth of the commands: each is found by its name, listed in the overview,
// and every example its help prints parses as that command.
TEST(Cli, EveryCommandIsListedFoundAndItsExamplesParse) {
  const std::string overview = parse({"--help"}).help_text;
  ASSERT_FALSE(commands().empty());
  for (const auto& c : commands()) {
    const std::string name(c.name);
    EXPECT_EQ(find_command(c.name), &c) << name;
    EXPECT_NE(overview.find("  " + name + " "), std::string::npos) << name;
    std::istringstream lines{std::string(c.examples)};
    int examples = 0;
    for (std::string line; std::getline(lines, line); ++examples) {
      const auto at = line.find("gpuscale");
      ASSERT_NE(at, std::string::npos) << line;
      std::istringstream words(line.substr(at + std::string("gpuscale").size()));
      std::vector<std::string> args{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
      std::vector<const char*> argv;
      for (const auto& a : args) argv.push_back(a.c_str());
      EXPECT_EQ(parse(argv).command, name) << line;
    }
    EXPECT_GT(examples, 0) << name;
  }
  EXPECT_EQ(find_command("frobnicate"), nullptr);
}

}  // namespace
}  // namespace gpuscale::launch
