#include "launch/Cli.hpp"
#include "launch/Commands.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"

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
  const auto inv = parse({"env", "--json", "out.json", "--device", "cpu", "--timeout", "30"});
  EXPECT_EQ(inv.command, "env");
  EXPECT_EQ(inv.common.json_path, "out.json");
  EXPECT_EQ(inv.common.device, "cpu");
  EXPECT_DOUBLE_EQ(inv.common.timeouts.env_s, 30);
  EXPECT_DOUBLE_EQ(inv.common.timeouts.train_s, 30);
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

TEST(Cli, UnbuiltCommandsSaySo) {
  // Whichever commands are not built yet (none, once every phase exists).
  for (const auto& c : commands()) {
    if (c.built) continue;
    try {
      parse({std::string(c.name).c_str()});
      FAIL() << c.name << " accepted";
    } catch (const harness::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("not built yet"), std::string::npos) << c.name;
    }
  }
}

}  // namespace
}  // namespace gpuscale::launch
