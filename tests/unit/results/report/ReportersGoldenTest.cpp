// The console reporter against golden strings (CsvReporterTest.cpp: the CSVs): any change to what
// people read shows up here as a diff.
#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/VerdictRules.hpp"
#include "results/base/Format.hpp"
#include "results/render/TraceReporter.hpp"
#include "results/report/ConsoleReporter.hpp"
#include "results/report/CsvReporter.hpp"
#include "results/report/HtmlReporter.hpp"
#include "results/report/RunFigures.hpp"

namespace gpuscale::results {
namespace {

RunReport judged_sample() {
  auto r = testing::sample_run();
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  r.output_set = "20261130T000000Z-42-1";
  return r;
}

constexpr const char* kConsoleGolden = R"(gpuscale 0.1.0 | 2 ranks on 1 node | backend cuda | 2026-11-30T00:00:00Z
== Env: ranks ==
  rank  host   node  local  gpu  name           pci bus       mem free/total GiB  hbm peak TB/s  sm MHz  temp C  power W  numa  cpus  smoke allreduce
  0     node1  0     0      0    NVIDIA H200    0000:19:00.0  138.8/139.7         4.80           1980    31      120/700  -1    0-7   ok 0.50ms
  1     node1  0     1      -    cpu: Test CPU  -             -                   -              -       -       -        -     8-15  ok 0.75ms
== Env: launch ==
  launcher - | MPI: 2 ranks on 1 node
== Env: versions (rank 0) ==
  differences across ranks are listed under Checks
  driver - | CUDA driver API - | CUDA runtime - | cuBLAS - | cuDNN - (header -) | NCCL - (header -)
  MPI Open MPI v4.1.6 (standard 3.1)
== Checks ==
  warning  numa-binding  [ranks 1]  bind rank 1, to NUMA node 0
== Verdict: PASS ==
  WARN  no error checks  (warnings: numa-binding)
  PASS  no wrong elements  (2 figures ok)
)";

TEST(ReportersGolden, Console) {
  std::ostringstream out;
  ConsoleReporter().write(judged_sample(), out);
  EXPECT_EQ(out.str(), kConsoleGolden);
}

// A check's line fits the console: a long message is cut at a word and says where the rest is; the
// JSON keeps it whole.
TEST(ReportersGolden, ConsoleCutsLongCheckLines) {
  auto run = judged_sample();
  std::string message = "the run's budget of 15 s ran out:";
  for (int i = 0; i < 40; ++i) message += " word" + std::to_string(i);
  run.checks.front().message = message;
  run.checks.front().count = 3;
  std::ostringstream out;
  ConsoleReporter().write(run, out);
  std::istringstream lines(out.str());
  std::string check;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), kConsoleLineChars) << line;
    if (check.empty() && line.find("numa-binding") != std::string::npos) check = line;
  }
  EXPECT_EQ(check.rfind("  warning  numa-binding x3  [ranks 1]  the run's budget of 15 s ran out: word0 word1", 0), 0u) << check;
  EXPECT_NE(check.find(" ... (rest in the JSON) (+2 more like it in the JSON)"), std::string::npos) << check;
  EXPECT_GT(check.size(), kConsoleLineChars - 12) << check;
  EXPECT_EQ(run.checks.front().message, message);
}

TEST(ReportersGolden, ConsoleEscapesControlCharactersFromOutside) {
  auto run = judged_sample();
  run.ranks.front().host = "evil\x1b[2J\rhost\x7f";  // clear screen, return, DEL
  std::ostringstream out;
  ConsoleReporter().write(run, out);
  const std::string text = out.str();
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find('\x7f'), std::string::npos);
  EXPECT_NE(text.find("evil\\x1b[2J\\x0dhost\\x7f"), std::string::npos) << text;
}

// One write's files name the same set and the same verdict, so files of different moments differ.
TEST(ReportersGolden, EveryFileOfAWriteCarriesItsSetAndVerdict) {
  auto r = judged_sample();
  r.complete = false;
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  std::ostringstream html, trace, csv;
  HtmlReporter().write(r, html);
  TraceReporter().write(r, trace);
  CsvReporter().write(r, csv);
  EXPECT_NE(html.str().find("<meta name=\"gpuscale-output-set\" content=\"20261130T000000Z-42-1\">"), std::string::npos);
  EXPECT_NE(html.str().find("Verdict: INCOMPLETE"), std::string::npos);
  const auto other = nlohmann::json::parse(trace.str()).at("otherData");
  EXPECT_EQ(other.at("gpuscale_output_set"), "20261130T000000Z-42-1");
  EXPECT_EQ(other.at("verdict"), "INCOMPLETE");
  EXPECT_NE(csv.str().find("\n20261130T000000Z,20261130T000000Z-42-1,2026-11-30T00:00:00Z,,,,,,,run,verdict,"
                           "result=INCOMPLETE,0,,not_judged\n"),
            std::string::npos)
      << csv.str();
}

}  // namespace
}  // namespace gpuscale::results
