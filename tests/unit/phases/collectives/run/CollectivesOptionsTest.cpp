// `gpuscale collectives` options: nccl-tests' letters, defaults by backend, bad input -> UsageError.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "collectives/Op.hpp"
#include "harness/Error.hpp"
#include "launch/Cli.hpp"
#include "phases/collectives/run/CollectivesPhase.hpp"

namespace gpuscale::launch {
namespace {

collectives::SweepOptions options(std::vector<const char*> args, bool cpu = false) {
  args.insert(args.begin(), {"gpuscale", "collectives"});
  const auto inv = parse_command_line(static_cast<int>(args.size()), args.data());
  return collectives_options(inv.options, make_profile(inv.common.quick, cpu).collectives);
}

TEST(CollectivesOptions, NcclTestsLetters) {
  const auto o = options({"-b", "8", "-e", "1G", "-f", "4", "-n", "30", "-w", "3", "-c", "5", "-G", "10", "-d",
                          "bfloat16", "-o", "max", "-r", "1", "-m", "4", "--ops", "allreduce,sendrecv"});
  EXPECT_EQ(o.min_bytes, 8u);
  EXPECT_EQ(o.max_bytes, 1u << 30);
  EXPECT_EQ(o.step_factor, 4u);
  EXPECT_EQ(o.iterations, 30);
  EXPECT_EQ(o.warmup, 3);
  EXPECT_EQ(o.check_passes, 5);
  EXPECT_EQ(o.graph_launches, 10);
  EXPECT_EQ(o.type, harness::DataType::bfloat16);
  EXPECT_EQ(o.redop, harness::RedOp::max);
  EXPECT_EQ(o.root, 1);
  EXPECT_EQ(o.aggregated, 4);
  ASSERT_EQ(o.ops.size(), 2u);
  EXPECT_EQ(o.ops[1]->name, "sendrecv");
}

// The `--ops` text of `gpuscale collectives --help`, up to the next option.
std::string ops_help() {
  const char* args[] = {"gpuscale", "collectives", "--help"};
  const auto help = parse_command_line(3, args).help_text;
  const auto from = help.find("--ops");
  const auto to = help.find("--scaling-sizes", from);
  if (from == std::string::npos || to == std::string::npos) return "";
  return help.substr(from, to - from);
}

// The registry (collectives/OpRegistry.def) is the one list of ops: each registered op is named in
// the `--ops` help, parses on the command line, and is in the default set, in registry order.
TEST(CollectivesOptions, EveryRegisteredOpIsInHelpAndParses) {
  const auto help = ops_help();
  const auto registered = collectives::all_ops();
  ASSERT_GE(registered.size(), 7u);
  for (const auto* op : registered) {
    const std::string name(op->name);
    EXPECT_NE(help.find(" " + name + ","), std::string::npos) << name << " missing from: " << help;
    const auto parsed = options({"--ops", name.c_str()}).ops;
    ASSERT_EQ(parsed.size(), 1u) << name;
    EXPECT_EQ(parsed[0], op);
    EXPECT_EQ(options({"--scaling-ops", name.c_str()}).scaling_ops.at(0), op);
  }
  const auto defaults = options({}).ops;
  EXPECT_TRUE(std::equal(defaults.begin(), defaults.end(), registered.begin(), registered.end()));
  EXPECT_NE(help.find("(default " + std::string(collectives::kDefaultOps) + ")"), std::string::npos) << help;
}

TEST(CollectivesOptions, DefaultsByBackend) {
  EXPECT_EQ(options({}).max_bytes, 1u << 30);
  EXPECT_EQ(options({}, true).max_bytes, 4u << 20);
  EXPECT_TRUE(options({"--scaling-sizes", "none"}).scaling_sizes.empty());
  EXPECT_EQ(options({"-i", "1K", "-b", "1K", "-e", "4K"}).step_bytes, 1024u);
}

TEST(CollectivesOptions, BadInputIsUsageError) {
  for (const auto& bad : std::vector<std::vector<const char*>>{
           {"-b", "1X"}, {"-e", "-5"}, {"-b", "1G", "-e", "1M"}, {"-f", "1"}, {"-f", "2", "-i", "8"},
           {"-n", "0"}, {"-d", "float8"}, {"-o", "xor"}, {"--ops", "allreduce,nope"}, {"-m", "0"},
           {"--scaling-sizes", "8,,x"}, {"-n", "many"}})
    EXPECT_THROW(options(bad), harness::UsageError) << bad[0] << " " << bad[1];
}

// Every size option reads the one size syntax (harness::parse_size_bytes), so each form the README
// lists works on the command line, and zero (where it means nothing) and 2^63 are refused.
TEST(CollectivesOptions, SizesUseTheOneSyntax) {
  EXPECT_EQ(options({"-b", "8", "-e", "512MiB"}).max_bytes, 512ull << 20);
  EXPECT_EQ(options({"-b", "64KiB", "-e", "1GB"}).min_bytes, 64u << 10);
  EXPECT_EQ(options({"-e", "2T"}).max_bytes, 2ull << 40);
  EXPECT_EQ(options({"--scaling-sizes", "8,1MiB"}).scaling_sizes, (std::vector<std::uint64_t>{8, 1u << 20}));
  EXPECT_EQ(options({"--pair-bytes", "0"}).pair_large_bytes, 0u);  // 0 disables the matrix
  EXPECT_EQ(options({"--pair-bytes", "2MiB", "--pair-small-bytes", "1k"}).pair_small_bytes, 1024u);
  for (const auto& bad : std::vector<std::vector<const char*>>{
           {"-b", "0"}, {"-e", "0"}, {"-i", "0"}, {"--scaling-sizes", "0"}, {"--scaling-sizes", "8,0"},
           {"--pair-small-bytes", "0"}, {"-e", "9223372036854775808"}, {"-e", "8388608T"},
           {"-b", "1.5M"}})
    EXPECT_THROW(options(bad), harness::UsageError) << bad[0] << " " << bad[1];
}

// Counts and fractions: zero where it means nothing, negatives, NaN and infinities are refused.
TEST(CollectivesOptions, NumbersOutOfRangeAreUsageErrors) {
  for (const auto& bad : std::vector<std::vector<const char*>>{
           {"-w", "-1"}, {"-c", "-1"}, {"-G", "-1"}, {"-r", "-1"}, {"-f", "0"}, {"-f", "2x"},
           {"-n", "99999999999"}, {"--pair-threshold", "nan"}, {"--link-threshold", "1.5"},
           {"--net-gbps", "inf"}, {"--net-gbps", "-1"}, {"--net-gbps", "1e300"}})
    EXPECT_THROW(options(bad), harness::UsageError) << bad[0] << " " << bad[1];
  EXPECT_EQ(options({"-f", "8"}).step_factor, 8u);
  EXPECT_EQ(options({"-c", "0", "-w", "0"}).check_passes, 0);
}

}  // namespace
}  // namespace gpuscale::launch
