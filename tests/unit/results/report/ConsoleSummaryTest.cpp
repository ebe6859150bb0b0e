// The preflight's one screen: each headline with its floor and per-GPU values, a GPU under its floor
// marked, no per-rank tables; the full view keeps them.
#include "results/report/RunFigures.hpp"
#include "results/report/ConsoleSummary.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
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

}  // namespace
}  // namespace gpuscale::results
