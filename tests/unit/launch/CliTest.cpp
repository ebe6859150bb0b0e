#include "launch/Cli.hpp"

#include <algorithm>
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

// One straggler threshold for the whole job, a judge input: every command that judges one run takes it
// (collectives and report too, which had none), compare and baseline refuse it, bad values are one line.
TEST(Cli, OneStragglerThresholdForEveryCommandThatJudgesARun) {
  EXPECT_FALSE(parse({"compute"}).common.straggler_threshold);
  for (const char* command : {"run", "env", "links", "compute", "burn", "collectives", "train"})
    EXPECT_DOUBLE_EQ(parse({command, "--straggler-threshold", "0.25"}).common.straggler_threshold.value_or(0), 0.25)
        << command;
  EXPECT_DOUBLE_EQ(parse({"report", "run.json", "--straggler-threshold", "0.3"}).common.straggler_threshold.value_or(0),
                   0.3);
  for (const char* command : {"compare", "baseline"}) {
    try {
      parse({command, "a.json", "b.json", "--straggler-threshold", "0.2"});
      ADD_FAILURE() << command << " took --straggler-threshold";
    } catch (const harness::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--straggler-threshold does not apply here"), std::string::npos) << e.what();
    }
  }
  for (const char* bad : {"0", "-1", "nan", "inf", "101", "x"})
    EXPECT_THROW(parse({"burn", "--straggler-threshold", bad}), harness::UsageError) << bad;
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

// The one line of the usage error `args` make; "" when they parse.
std::string usage_error(std::vector<const char*> args) {
  try {
    parse(std::move(args));
  } catch (const harness::UsageError& e) {
    return e.what();
  }
  return "";
}

// The long options a help text lists: "  -o, --output FILE  ..." -> "output".
std::vector<std::string> listed_options(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    // An option's line starts with it, a few columns in; a wrapped description is indented further.
    const auto first = line.find_first_not_of(' ');
    const auto at = line.find("--");
    if (first == std::string::npos || first > 6 || line[first] != '-' || at == std::string::npos) continue;
    const auto end = line.find_first_of(" =", at);
    names.push_back(line.substr(at + 2, end - at - 2));
  }
  return names;
}

// Every option a command's --help lists is one it takes: given (with a value where it needs one), it
// may be refused for its value, never as an option that does not apply or does not exist.
TEST(Cli, EveryOptionAHelpListsIsAccepted) {
  for (const auto& c : commands()) {
    const std::string name(c.name);
    const auto listed = listed_options(parse({name.c_str(), "--help"}).help_text);
    EXPECT_GT(listed.size(), 2u) << name;
    for (const auto& option : listed) {
      const std::string flag = "--" + option;
      for (const char* value : {"", "1"}) {
        std::vector<const char*> args = {name.c_str(), flag.c_str()};
        if (*value) args.push_back(value);
        const auto error = usage_error(args);
        EXPECT_EQ(error.find("does not apply"), std::string::npos) << name << " " << flag << ": " << error;
        EXPECT_EQ(error.find("unknown option"), std::string::npos) << name << " " << flag << ": " << error;
      }
    }
  }
  // What the saved-run commands refuse is left out of their help, and still refused when given.
  const auto report = listed_options(parse({"report", "--help"}).help_text);
  for (const char* refused : {"quick", "device", "timeout", "seed"})
    EXPECT_EQ(std::count(report.begin(), report.end(), refused), 0) << refused;
  EXPECT_EQ(std::count(report.begin(), report.end(), "full"), 1);
  EXPECT_EQ(std::count(report.begin(), report.end(), "json"), 1);
  const auto compare = listed_options(parse({"compare", "--help"}).help_text);
  for (const char* refused : {"json", "expect", "baseline", "require-complete", "quick"})
    EXPECT_EQ(std::count(compare.begin(), compare.end(), refused), 0) << refused;
  EXPECT_EQ(usage_error({"report", "run.json", "--quick"}),
            "gpuscale report: --quick does not apply here; it rebuilds the outputs of a saved run");
  EXPECT_NE(usage_error({"compare", "a.json", "b.json", "--json", "c.json"}).find("--json does not apply here"),
            std::string::npos);
}

// A misspelt command or option is named with the one it most likely meant, in our words (ASCII quotes,
// lower case), never cxxopts' ("Option \u2018quik\u2019 does not exist").
TEST(Cli, MisspellingsAreAnsweredWithWhatWasMeant) {
  EXPECT_EQ(usage_error({"--quik"}), "gpuscale run: unknown option --quik (did you mean --quick?) (gpuscale run --help)");
  EXPECT_EQ(usage_error({"collectives", "--opps", "allreduce"}),
            "gpuscale collectives: unknown option --opps (did you mean --ops?) (gpuscale collectives --help)");
  EXPECT_EQ(usage_error({"report", "run.json", "--ful"}),
            "gpuscale report: unknown option --ful (did you mean --full?) (gpuscale report --help)");
  // Not suggested where the command refuses it.
  EXPECT_EQ(usage_error({"report", "run.json", "--quik"}), "gpuscale report: unknown option --quik (gpuscale report --help)");
  EXPECT_EQ(usage_error({"colectives"}), "unknown command 'colectives' (did you mean collectives?)");
  EXPECT_NE(usage_error({"frobnicate"}).find("commands: run, env"), std::string::npos);
  EXPECT_EQ(usage_error({"env", "-Z"}), "gpuscale env: unknown option -Z (gpuscale env --help)");
  for (const auto& error : {usage_error({"env", "--seed", "x"}), usage_error({"env", "--seed"}), usage_error({"-Z"})}) {
    EXPECT_EQ(error.find("\u2018"), std::string::npos) << error;
    EXPECT_EQ(error.find("Option"), std::string::npos) << error;
    EXPECT_EQ(error.find("Argument"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace gpuscale::launch
