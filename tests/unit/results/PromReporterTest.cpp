#include "results/render/PromReporter.hpp"

#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "judge/VerdictRules.hpp"

namespace gpuscale::results {
namespace {

std::string exposition(RunReport r) {
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  std::ostringstream out;
  PromReporter().write(r, out);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& l : lines_of(text))
    if (l == line) return true;
  return false;
}

TEST(PromReporter, VerdictHeadlinesPerGpuAndChecksPerHost) {
  const auto text = exposition(testing::sample_fleet_run());
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_verdict_passed gauge"));
  EXPECT_TRUE(has_line(text, "gpuscale_verdict_passed 0")) << "the slow-node error fails the run\n" << text;
  EXPECT_TRUE(
      has_line(text, "gpuscale_burn_sustained_tflops{host=\"n2\",gpu=\"1\",uuid=\"GPU-5\",precision=\"bf16\"} 600"))
      << text;
  EXPECT_TRUE(
      has_line(text, "gpuscale_burn_sustained_tflops{host=\"n0\",gpu=\"0\",uuid=\"GPU-0\",precision=\"bf16\"} 800"));
  // Ranks 4 and 5 are both on n2: one sample.
  EXPECT_TRUE(has_line(text, "gpuscale_check{id=\"slow-node\",severity=\"error\",host=\"n2\"} 1"));
  EXPECT_EQ(text.find("gpuscale_check{id=\"slow-node\""), text.rfind("gpuscale_check{id=\"slow-node\""));
}

// A GPU measured beside another process is left out of the headline samples (and of the median), and
// said to be in its own family; with every GPU of a headline left out, the family is left out too.
TEST(PromReporter, FiguresMeasuredBesideAnotherProcessAreLeftOutAndNamed) {
  auto run = testing::sample_fleet_run();
  run.burn[5].beside_tenant = true;  // rank 5, the slow one on n2
  const auto text = exposition(run);
  EXPECT_FALSE(
      has_line(text, "gpuscale_burn_sustained_tflops{host=\"n2\",gpu=\"1\",uuid=\"GPU-5\",precision=\"bf16\"} 600"))
      << text;
  EXPECT_TRUE(
      has_line(text, "gpuscale_burn_sustained_tflops{host=\"n2\",gpu=\"0\",uuid=\"GPU-4\",precision=\"bf16\"} 800"));
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_beside_tenant gauge")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_beside_tenant{host=\"n2\",gpu=\"1\",uuid=\"GPU-5\",phase=\"burn\"} 1"));
  for (auto& b : run.burn) b.beside_tenant = true;
  const auto none = exposition(run);
  EXPECT_EQ(none.find("gpuscale_burn_sustained_tflops"), std::string::npos) << none;
}

// The isolation figures per node and the suspects, labelled host like the other samples.
TEST(PromReporter, IsolationFiguresAndSuspectsPerHost) {
  const auto text = exposition(testing::sample_fleet_run());
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_node_local_busbw_gbps gauge")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_gbps{host=\"n2\"} 40"));
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_gbps{host=\"n1\"} 90"));
  // n2's two rounds at 10 GB/s; n1's at 100.
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_inter_node_busbw_gbps gauge"));
  EXPECT_TRUE(has_line(text, "gpuscale_inter_node_busbw_gbps{host=\"n2\"} 10"));
  EXPECT_TRUE(has_line(text, "gpuscale_inter_node_busbw_gbps{host=\"n1\"} 100"));
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_suspect_score gauge"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_score{host=\"n2\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_rounds_failed{host=\"n2\"} 6"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_rounds_counted{host=\"n2\"} 6"));
  std::size_t node_samples = 0;
  for (const auto& line : lines_of(text)) node_samples += line.rfind("gpuscale_node_local_busbw_gbps{", 0) == 0;
  EXPECT_EQ(node_samples, 4u) << "one per node";
}

TEST(PromReporter, NoIsolationNoNodeOrSuspectFamilies) {
  auto r = testing::sample_fleet_run();
  r.collectives.reset();
  const auto text = exposition(r);
  EXPECT_EQ(text.find("gpuscale_node_local_busbw_gbps"), std::string::npos) << text;
  EXPECT_EQ(text.find("gpuscale_suspect_"), std::string::npos);
}

TEST(PromReporter, PassedRunAndNoChecksWritesNoCheckFamily) {
  auto r = testing::sample_fleet_run();
  r.checks.clear();
  const auto text = exposition(r);
  EXPECT_TRUE(has_line(text, "gpuscale_verdict_passed 1")) << text;
  EXPECT_EQ(text.find("gpuscale_check"), std::string::npos);
}

TEST(PromReporter, OneHelpAndTypePerMetricBeforeItsSamplesWhichStayTogether) {
  auto r = testing::sample_fleet_run();
  BurnRecord fp16 = r.burn.front();
  fp16.precision = "fp16";
  r.burn.push_back(fp16);  // a second headline of the same metric
  const auto text = exposition(r);
  std::map<std::string, int> helps, types;
  std::string family;
  std::map<std::string, bool> closed;  // a family whose samples ended
  for (const auto& line : lines_of(text)) {
    if (line.rfind("# HELP ", 0) == 0) {
      ++helps[line.substr(7, line.find(' ', 7) - 7)];
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      const auto name = line.substr(7, line.find(' ', 7) - 7);
      ++types[name];
      EXPECT_EQ(helps[name], 1) << "HELP before TYPE: " << name;
      if (!family.empty()) closed[family] = true;
      family = name;
      continue;
    }
    const auto name = line.substr(0, line.find_first_of("{ "));
    EXPECT_EQ(name, family) << "a sample outside its family: " << line;
    EXPECT_FALSE(closed[name]) << line;
  }
  for (const auto& [name, n] : types) EXPECT_EQ(n, 1) << name;
  EXPECT_EQ(helps, types);
  EXPECT_TRUE(
      has_line(text, "gpuscale_burn_sustained_tflops{host=\"n0\",gpu=\"0\",uuid=\"GPU-0\",precision=\"fp16\"} 800"));
}

// A finding that names whole nodes and no rank (a node's own figure out of line) is labelled with
// its nodes' hosts, not as one of the whole job.
TEST(PromReporter, AFindingOfNodesCarriesTheirHosts) {
  auto r = testing::sample_fleet_run();
  Check c{"node-outlier", Severity::warning, {}, "node 2: node-local busbw 40 GB/s"};
  c.nodes = {2};
  r.checks = {c};
  const auto text = exposition(r);
  EXPECT_TRUE(has_line(text, "gpuscale_check{id=\"node-outlier\",severity=\"warning\",host=\"n2\"} 1")) << text;
  EXPECT_EQ(text.find("host=\"\"}"), std::string::npos) << text;
}

TEST(PromReporter, NodesSharingAHostNameAreToldApart) {
  auto r = testing::sample_fleet_run();
  for (auto& e : r.ranks) e.host = "vm";
  const auto text = exposition(r);
  EXPECT_TRUE(
      has_line(text, "gpuscale_burn_sustained_tflops{host=\"vm/n2\",gpu=\"1\",uuid=\"GPU-5\",precision=\"bf16\"} 600"))
      << text;
  EXPECT_TRUE(has_line(text, "gpuscale_check{id=\"slow-node\",severity=\"error\",host=\"vm/n2\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_gbps{host=\"vm/n2\"} 40")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_score{host=\"vm/n2\"} 1"));
}

TEST(PromReporter, EscapesBackslashQuoteAndNewlineInLabelValues) {
  EXPECT_EQ(prom_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  auto r = testing::sample_fleet_run();
  r.ranks[5].host = "n\"2\\\n";
  const auto text = exposition(r);
  EXPECT_TRUE(has_line(text, "gpuscale_check{id=\"slow-node\",severity=\"error\",host=\"n\\\"2\\\\\\n\"} 1")) << text;
  EXPECT_TRUE(has_line(
      text, "gpuscale_burn_sustained_tflops{host=\"n\\\"2\\\\\\n\",gpu=\"1\",uuid=\"GPU-5\",precision=\"bf16\"} 600"));
}

}  // namespace
}  // namespace gpuscale::results
