// The test layout as a run states it: the sentence, the JSON under "world", and which checks the
// shared-GPU mode sets aside.
#include "results/world/Emulation.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "SampleRun.hpp"

namespace gpuscale::results {
namespace {

TEST(Emulation, TheSentenceNamesTheLayoutAndWhatIsNotJudged) {
  EXPECT_EQ(emulation_text({2, false}, 3), "3 emulated nodes of 2 ranks (GPUSCALE_TEST_RANKS_PER_NODE=2)");
  const auto shared = emulation_text({1, true}, 1);
  EXPECT_EQ(shared.rfind("1 emulated node of 1 rank (GPUSCALE_TEST_RANKS_PER_NODE=1), sharing GPUs", 0), 0u) << shared;
  EXPECT_NE(shared.find("speed is not judged"), std::string::npos);
}

TEST(Emulation, TheRunStatesItOnceUnderWorld) {
  auto r = testing::sample_run();
  nlohmann::json j = r;
  EXPECT_FALSE(j["world"].contains("emulated"));
  r.emulation = Emulation{1, true};
  j = r;
  EXPECT_EQ(j["world"]["emulated"], (nlohmann::json{{"ranks_per_node", 1}, {"shared_gpu", true}}));
  const auto back = j.get<RunReport>();
  ASSERT_TRUE(back.emulation);
  EXPECT_EQ(back.emulation->ranks_per_node, 1);
  EXPECT_TRUE(back.emulation->shared_gpu);
}

TEST(Emulation, OnlyTheModesVariableMarksARank) {
  RankEnv r;
  EXPECT_FALSE(shares_gpu_across_nodes(r));
  r.variables[kShareGpuVariable] = "0";
  EXPECT_FALSE(shares_gpu_across_nodes(r));
  r.variables[kShareGpuVariable] = "1";
  EXPECT_TRUE(shares_gpu_across_nodes(r));
}

}  // namespace
}  // namespace gpuscale::results
