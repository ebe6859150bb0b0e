// The preflight's one screen: each headline with its floor and per-GPU values, a GPU under its floor
// marked, no per-rank tables; the full view keeps them.
#include "results/report/RunFigures.hpp"
#include "results/report/ConsoleSummary.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/Judge.hpp"
#include "judge/VerdictRules.hpp"
#include "results/report/ConsoleReporter.hpp"
#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

RunReport burnt_run(double rank1_tflops) {
  auto r = testing::sample_run();
  for (int rank : {0, 1}) {
    BurnRecord b;
    b.rank = rank;
    b.host = "node1";
    b.gpu = "NVIDIA H200";
    b.precision = "bf16";
    b.sustained_tflops = rank == 0 ? 674 : rank1_tflops;
    r.burn.push_back(b);
  }
  for (auto& c : judge::floor_checks_marked(r)) r.checks.push_back(std::move(c));
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  return r;
}

std::string screen(const RunReport& r, ConsoleView view) {
  std::ostringstream out;
  ConsoleReporter(view).write(r, out);
  return out.str();
}

TEST(ConsoleSummary, HeadlineWithItsFloorAndEachGpu) {
  const auto text = screen(burnt_run(372), ConsoleView::summary);
  EXPECT_NE(text.find("== Summary per phase ==\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  Burn: sustained TFLOP/s, bf16: 523 TFLOP/s (floor 554, 52.9% of peak 989 NVIDIA H200 "
                      "data sheet)\n    per GPU: rank 0 674 | rank 1 372 UNDER FLOOR\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("error  gpu-slow-sustained  [ranks 1]"), std::string::npos) << text;
  EXPECT_EQ(text.find("== Env: ranks =="), std::string::npos) << "the per-rank table belongs to the full view";
  EXPECT_EQ(text.find("== Burn: sustained load"), std::string::npos);
  EXPECT_NE(text.find("== Env ==\n  1 x NVIDIA H200, 1 x cpu: Test CPU | Open MPI v4.1.6\n"), std::string::npos) << text;
  EXPECT_NE(screen(burnt_run(372), ConsoleView::full).find("== Burn: sustained load"), std::string::npos);
}

TEST(ConsoleSummary, HealthyGpusAreNotMarked) {
  const auto text = screen(burnt_run(670), ConsoleView::summary);
  EXPECT_NE(text.find("    per GPU: rank 0 674 | rank 1 670\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("UNDER FLOOR"), std::string::npos);
}

// The mark is the judge's, not a comparison of its own: where the judge holds no GPU to its floor (ranks
// sharing GPUs on purpose measure each other's load), the console marks none either.
TEST(ConsoleSummary, NoMarkWhereTheJudgeHoldsNoFloor) {
  auto run = burnt_run(372);
  run.emulation = Emulation{1, true};
  judge::judge(run, {});
  const auto text = screen(run, ConsoleView::summary);
  EXPECT_NE(text.find("    per GPU: rank 0 674 | rank 1 372\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("UNDER FLOOR"), std::string::npos) << text;
  run.emulation.reset();
  judge::judge(run, {});
  EXPECT_NE(screen(run, ConsoleView::summary).find("rank 1 372 UNDER FLOOR"), std::string::npos);
}

// Past 8 GPUs each node's median: a node whose GPU is under its floor says how many, and comes first
// even when its median is not the worst.
TEST(ConsoleSummary, NodesCountTheirGpusUnderTheFloor) {
  auto run = testing::sample_run();
  run.burn.clear();
  for (int rank = 0; rank < 20; ++rank) {
    BurnRecord b;
    b.rank = rank;
    b.host = "node" + std::to_string(rank / 2);
    b.gpu = "NVIDIA H200";
    b.precision = "bf16";
    b.sustained_tflops = rank == 19 ? 372 : rank == 18 ? 900 : 600 + rank;  // node 9's median the best
    run.burn.push_back(b);
    if (rank >= static_cast<int>(run.ranks.size())) {
      auto env = run.ranks.back();
      env.rank = rank;
      env.node = rank / 2;
      run.ranks.push_back(env);
    }
    run.ranks[static_cast<std::size_t>(rank)].node = rank / 2;
  }
  run.world_size = 20;
  judge::judge(run, {});
  const auto text = screen(run, ConsoleView::summary);
  EXPECT_NE(text.find("    per node (median of its GPUs): node 9 "), std::string::npos) << text;
  EXPECT_NE(text.find(" (1 GPU UNDER FLOOR) | node 0 "), std::string::npos) << text;
  EXPECT_NE(text.find(" | and 2 more (the worst shown)"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpuscale::results
