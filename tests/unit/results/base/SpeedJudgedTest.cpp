// The one exemption from the speed rules, the CPU backend: one predicate, and no rule of its own
// spelling of it.
#include "results/base/SpeedJudged.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

namespace gpuscale::results {
namespace {

TEST(SpeedJudged, EveryDeviceButTheCpuBackend) {
  EXPECT_FALSE(speed_judged(kCpuDevice));
  EXPECT_FALSE(speed_judged("cpu"));
  EXPECT_TRUE(speed_judged("NVIDIA H200"));
  EXPECT_TRUE(speed_judged("cuda"));
  EXPECT_TRUE(speed_judged(""));
}

// A rule or figure that tells the CPU backend apart by comparing a device with "cpu" itself is a
// second spelling of the exemption: each asks speed_judged.
TEST(SpeedJudged, NoRuleSpellsTheExemptionItself) {
  const std::regex own_spelling(R"((gpu|backend|model)\s*[!=]=\s*"cpu")");
  std::size_t read = 0;
  for (const char* layer : {"judge", "phases", "results"}) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::filesystem::path(GPUSCALE_SOURCE_DIR) / layer)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      ++read;
      EXPECT_FALSE(std::regex_search(text.str(), own_spelling))
          << entry.path() << " tells the CPU backend apart itself; ask results::speed_judged";
    }
  }
  EXPECT_GT(read, 100u);
}

}  // namespace
}  // namespace gpuscale::results
