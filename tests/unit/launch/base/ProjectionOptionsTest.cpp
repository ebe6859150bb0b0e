// --project-ranks: on `collectives` and the default run, defaults, "none", and bad input -> UsageError.
#include "launch/base/ProjectionOptions.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "launch/Cli.hpp"

namespace gpuscale::launch {
namespace {

std::vector<int> targets(const char* command, std::vector<const char*> args) {
  args.insert(args.begin(), {"gpuscale", command});
  const auto inv = parse_command_line(static_cast<int>(args.size()), args.data());
  return project_ranks(inv.options);
}

TEST(ProjectionOptions, DefaultsOnCollectivesAndRun) {
  const std::vector<int> defaults = {512, 1024, 4096};
  EXPECT_EQ(targets("collectives", {}), defaults);
  EXPECT_EQ(targets("run", {}), defaults);
  EXPECT_EQ(targets("train", {}), defaults);  // no option there: the default, and no collectives to fit
}

TEST(ProjectionOptions, ListsAreSortedOnceAndNoneDisables) {
  EXPECT_EQ(targets("collectives", {"--project-ranks", "128,64,128"}), (std::vector<int>{64, 128}));
  EXPECT_EQ(targets("run", {"--project-ranks", "2"}), (std::vector<int>{2}));
  EXPECT_TRUE(targets("collectives", {"--project-ranks", "none"}).empty());
  EXPECT_EQ(parse_project_ranks("16777216"), (std::vector<int>{kMaxProjectRanks}));
}

TEST(ProjectionOptions, BadValuesAreOneUsageError) {
  for (const char* bad : {"", "0", "1", "-8", "+8", "8.5", "8,,16", "64,", "1e3", "abc", "16777217", "99999999999",
                          " 64", "64 "}) {
    try {
      parse_project_ranks(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const harness::UsageError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_EQ(message.rfind("--project-ranks", 0), 0u) << message;
    }
  }
  EXPECT_THROW(targets("env", {"--project-ranks", "64"}), harness::UsageError);  // not an env option
}

}  // namespace
}  // namespace gpuscale::launch
