// The coverage list on the console and in the HTML (results/render/CoverageTable.hpp).
#include "results/render/CoverageTable.hpp"
#include "results/report/RunFigures.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "TextLines.hpp"
#include "results/report/HtmlReporter.hpp"

namespace gpuscale::results {
namespace {

Verdict coverage_of_a_trimmed_run() {
  Verdict v;
  v.coverage = {{"env", "probes and checks on 4 ranks", RuleResult::pass, "", false},
                {"env", "smoke allreduce", RuleResult::pass, "", false},
                {"collectives", "allreduce", RuleResult::warn,
                 "1 of 4 sizes measured; the rest dropped: budget spent (needed: multi-GPU)", true}};
  for (const char* op : {"allgather", "broadcast", "reduce", "reducescatter", "alltoall", "sendrecv"})
    v.coverage.push_back({"collectives", op, RuleResult::skip, "dropped: budget spent (needed: multi-GPU)", true});
  v.coverage.push_back({"collectives", "pairwise send/recv matrix", RuleResult::skip,
                        "dropped: budget spent (needed: multi-GPU)", true});
  v.coverage.push_back({"train", "single mlp bf16 weak, 1 GPU", RuleResult::pass, "", false});
  return v;
}

// One line per phase, result and reason, in the plan's order: the dropped sweeps named on one SKIP line.
TEST(CoverageTable, ConsoleGroupsItemsOfAPhaseWithOneResultAndReason) {
  std::ostringstream out;
  write_coverage(coverage_of_a_trimmed_run(), out);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 6u) << out.str();
  EXPECT_EQ(lines[0], "== Coverage: 11 planned | 3 measured | 1 in part | 7 skipped ==");
  EXPECT_EQ(lines[2], "  env           PASS  probes and checks on 4 ranks, smoke allreduce");
  EXPECT_EQ(
      lines[3],
      "  collectives   WARN  allreduce: 1 of 4 sizes measured; the rest dropped: budget spent (needed: multi-GPU)");
  EXPECT_EQ(lines[4],
            "  collectives   SKIP  allgather, broadcast, reduce, reducescatter, alltoall, sendrecv, pairwise send/recv "
            "matrix: dropped: budget spent (needed: multi-GPU)");
  EXPECT_EQ(lines[5], "  train         PASS  single mlp bf16 weak, 1 GPU");
}

TEST(CoverageTable, ConsoleLinesStayShort) {
  Verdict v;
  for (int i = 0; i < 40; ++i)
    v.coverage.push_back({"train", "ddp resnet50 fp32 strong, " + std::to_string(i) + " GPUs", RuleResult::skip,
                          "dropped: budget spent (needed: multi-GPU)", true});
  v.coverage.push_back({"env", "probes", RuleResult::skip, "phase not run: " + std::string(300, 'x'), true});
  std::ostringstream out;
  write_coverage(v, out);
  const auto lines = lines_of(out.str());
  for (const auto& line : lines) EXPECT_LE(line.size(), kCoverageLineWidth) << line;
  EXPECT_NE(out.str().find(" more: dropped: budget spent"), std::string::npos) << out.str();
}

TEST(CoverageTable, NothingWithoutCoverage) {
  std::ostringstream console, html;
  write_coverage(Verdict{}, console);
  write_coverage_html(Verdict{}, html);
  EXPECT_EQ(console.str(), "");
  EXPECT_EQ(html.str(), "");
}

// The HTML page has the coverage section after the verdict, a row per item classed by its result.
TEST(CoverageTable, HtmlListsEveryItemAfterTheVerdict) {
  auto run = testing::sample_run();
  run.verdict.coverage = coverage_of_a_trimmed_run().coverage;
  std::ostringstream out;
  write_html(run, flatten(run), out);
  const auto html = out.str();
  const auto verdict = html.find("<section id=\"verdict\"");
  const auto coverage = html.find("<section id=\"coverage\"");
  ASSERT_NE(coverage, std::string::npos);
  EXPECT_LT(verdict, coverage);
  EXPECT_LT(coverage, html.find("<section id=\"summary\""));
  std::size_t rows = 0;
  for (auto at = html.find("<tr class=\"SKIP\">", coverage); at != std::string::npos;
       at = html.find("<tr class=\"SKIP\">", at + 1))
    ++rows;
  EXPECT_EQ(rows, 7u);
  EXPECT_NE(html.find("<td>sendrecv</td><td>SKIP</td><td>dropped: budget spent (needed: multi-GPU)</td>", coverage),
            std::string::npos);
}

}  // namespace
}  // namespace gpuscale::results
