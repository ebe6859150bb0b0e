#include "results/report/PromReporter.hpp"
#include "results/report/RunFigures.hpp"

#include <map>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>

#include "SampleRun.hpp"
#include "TextLines.hpp"
#include "judge/VerdictRules.hpp"

namespace gpuscale::results {
namespace {

// The sample run with each rank's CUDA device at its local rank, as on a node where CUDA sees all GPUs.
RunReport fleet() {
  auto r = testing::sample_fleet_run();
  for (auto& e : r.ranks) e.gpu->cuda_index = e.local_rank;
  return r;
}

std::string exposition(RunReport r, std::optional<int> node = std::nullopt) {
  r.verdict = judge::evaluate_verdict(r, flatten(r), {});
  std::ostringstream out;
  (node ? PromReporter(*node) : PromReporter()).write(r, out);
  return out.str();
}

// The labels of sample_fleet_run's rank's GPU, as every per-GPU series starts.
std::string gpu(int rank, const std::string& host = "") {
  return "Hostname=\"" + (host.empty() ? "n" + std::to_string(rank / 2) : host) + "\",gpu=\"" +
         std::to_string(rank % 2) + "\",UUID=\"GPU-" + std::to_string(rank) + "\",gpu_model=\"NVIDIA H200\",rank=\"" +
         std::to_string(rank) + "\",local_rank=\"" + std::to_string(rank % 2) + "\"";
}

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& l : lines_of(text))
    if (l == line) return true;
  return false;
}

TEST(PromReporter, VerdictHeadlinesPerGpuInBaseUnitsAndChecksPerHost) {
  const auto text = exposition(fleet());
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_verdict_passed gauge"));
  EXPECT_TRUE(has_line(text, "gpuscale_verdict_passed{Hostname=\"n0\"} 0")) << "the slow-node error fails the run\n"
                                                                            << text;
  EXPECT_TRUE(has_line(text, "gpuscale_burn_sustained_flops{" + gpu(5) + ",precision=\"bf16\"} 600000000000000"))
      << text;
  EXPECT_TRUE(has_line(text, "gpuscale_burn_sustained_flops{" + gpu(0) + ",precision=\"bf16\"} 800000000000000"));
  EXPECT_TRUE(has_line(text, "# HELP gpuscale_burn_sustained_flops FLOP/s a GPU sustained under the burn load"));
  EXPECT_EQ(text.find("tflops"), std::string::npos) << text;
  EXPECT_EQ(text.find("_gbps"), std::string::npos) << text;
  // Ranks 4 and 5 are both on n2: one sample.
  EXPECT_TRUE(has_line(text, "gpuscale_check{Hostname=\"n2\",id=\"slow-node\",severity=\"error\",scope=\"node\"} 1"));
  EXPECT_EQ(text.find("gpuscale_check{Hostname=\"n2\",id=\"slow-node\""),
            text.rfind("gpuscale_check{Hostname=\"n2\",id=\"slow-node\""));
}

TEST(PromReporter, BuildInfoStartTimeCompletenessAndEachRuleThatRan) {
  auto r = fleet();
  const auto text = exposition(r);
  EXPECT_TRUE(has_line(text, "gpuscale_build_info{Hostname=\"n0\",version=\"0.1.0\",schema_version=\"2\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_run_start_timestamp_seconds{Hostname=\"n0\"} 1795996800")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_run_complete{Hostname=\"n0\"} 1"));
  // Every rule of the verdict that ran is a series: the failed one 0, a passed one 1, none for SKIP.
  EXPECT_TRUE(has_line(text, "gpuscale_rule_passed{Hostname=\"n0\",rule=\"no error checks\",result=\"FAIL\"} 0"))
      << text;
  r.checks.clear();
  const auto passed = exposition(r);
  EXPECT_TRUE(has_line(passed, "gpuscale_rule_passed{Hostname=\"n0\",rule=\"no error checks\",result=\"PASS\"} 1"))
      << passed;
  EXPECT_EQ(passed.find("result=\"SKIP\""), std::string::npos);
  r.complete = false;
  EXPECT_TRUE(has_line(exposition(r), "gpuscale_run_complete{Hostname=\"n0\"} 0"));
}

// A GPU measured beside another process is left out of the headline samples (and of the median), and
// said to be in its own family; with every GPU of a headline left out, the family is left out too.
TEST(PromReporter, FiguresMeasuredBesideAnotherProcessAreLeftOutAndNamed) {
  auto run = fleet();
  run.marks.add(record_mark(BurnMark::beside_tenant, 5));  // rank 5, the slow one on n2
  const auto text = exposition(run);
  EXPECT_FALSE(has_line(text, "gpuscale_burn_sustained_flops{" + gpu(5) + ",precision=\"bf16\"} 600000000000000"))
      << text;
  EXPECT_TRUE(has_line(text, "gpuscale_burn_sustained_flops{" + gpu(4) + ",precision=\"bf16\"} 800000000000000"));
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_beside_tenant gauge")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_beside_tenant{" + gpu(5) + ",phase=\"burn\"} 1"));
  for (std::size_t i = 0; i < run.burn.size(); ++i) run.marks.add(record_mark(BurnMark::beside_tenant, i));
  const auto none = exposition(run);
  EXPECT_EQ(none.find("gpuscale_burn_sustained_flops"), std::string::npos) << none;
}

// The gpu label is NVML's index of the GPU, as dcgm-exporter's: where CUDA orders devices fastest first
// (its default), rank 1's CUDA device 1 can be the GPU NVML calls 3, and its series must join
// dcgm-exporter's gpu="3".
TEST(PromReporter, GpuIsNvmlsIndexWhateverCudaNumbers) {
  auto r = fleet();
  r.ranks[1].gpu->cuda_index = 1;
  r.ranks[1].gpu->nvml_index = 3;
  r.ranks[5].gpu->cuda_index = 0;
  r.ranks[5].gpu->nvml_index = 2;
  r.ranks[5].variables["CUDA_VISIBLE_DEVICES"] = "GPU-5";  // by UUID: NVML still knows the index
  const auto text = exposition(r);
  EXPECT_NE(text.find("gpuscale_burn_sustained_flops{Hostname=\"n0\",gpu=\"3\",UUID=\"GPU-1\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("gpuscale_burn_sustained_flops{Hostname=\"n2\",gpu=\"2\",UUID=\"GPU-5\""), std::string::npos);
}

// Without NVML's index (no NVML, or a file of an older run) the label is CUDA_VISIBLE_DEVICES' entry,
// none for a UUID entry.
TEST(PromReporter, WithoutNvmlGpuIsTheVisibleDevicesEntry) {
  auto r = fleet();
  r.ranks[5].gpu->cuda_index = 0;
  r.ranks[5].variables["CUDA_VISIBLE_DEVICES"] = "6";
  r.ranks[4].gpu->cuda_index = 0;
  r.ranks[4].variables["CUDA_VISIBLE_DEVICES"] = "GPU-4";
  const auto text = exposition(r);
  EXPECT_NE(text.find("gpuscale_burn_sustained_flops{Hostname=\"n2\",gpu=\"6\",UUID=\"GPU-5\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("gpuscale_burn_sustained_flops{Hostname=\"n2\",gpu=\"\",UUID=\"GPU-4\""), std::string::npos);
}

// The isolation figures per node in bytes per second, and the suspects with how they were found.
TEST(PromReporter, IsolationFiguresAndSuspectsPerHost) {
  const auto text = exposition(fleet());
  EXPECT_TRUE(has_line(text, "# TYPE gpuscale_node_local_busbw_bytes_per_second gauge")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_bytes_per_second{Hostname=\"n2\"} 40000000000"));
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_bytes_per_second{Hostname=\"n1\"} 90000000000"));
  // n2's two rounds at 10 GB/s; n1's at 100.
  EXPECT_TRUE(has_line(text, "gpuscale_inter_node_busbw_bytes_per_second{Hostname=\"n2\"} 10000000000"));
  EXPECT_TRUE(has_line(text, "gpuscale_inter_node_busbw_bytes_per_second{Hostname=\"n1\"} 100000000000"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect{Hostname=\"n2\",method=\"rounds\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_suspect{Hostname=\"n2\",method=\"bisection\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_score{Hostname=\"n2\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_rounds_failed{Hostname=\"n2\"} 6"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_rounds_counted{Hostname=\"n2\"} 6"));
  std::size_t node_samples = 0;
  for (const auto& line : lines_of(text))
    node_samples += line.rfind("gpuscale_node_local_busbw_bytes_per_second{", 0) == 0;
  EXPECT_EQ(node_samples, 4u) << "one per node";
}

// A node named by bisection alone played no counted round: it is named with its method, and no score
// of 0 reads as "healthy".
TEST(PromReporter, ASuspectWithoutRoundsHasItsMethodAndNoScore) {
  auto r = fleet();
  r.suspects.ranked = {Suspect{3, "n3", 0, 0, 0, true, false, "the bisection ended on it"}};
  const auto text = exposition(r);
  EXPECT_TRUE(has_line(text, "gpuscale_suspect{Hostname=\"n3\",method=\"bisection\"} 1")) << text;
  EXPECT_EQ(text.find("gpuscale_suspect_score"), std::string::npos) << text;
  EXPECT_EQ(text.find("method=\"rounds\""), std::string::npos);
}

TEST(PromReporter, NoIsolationNoNodeOrSuspectFamilies) {
  auto r = fleet();
  r.collectives.reset();
  const auto text = exposition(r);
  EXPECT_EQ(text.find("gpuscale_node_local_busbw"), std::string::npos) << text;
  EXPECT_EQ(text.find("gpuscale_suspect"), std::string::npos);
}

// A one-GPU node's node-local allreduce moves nothing over a link: no series.
TEST(PromReporter, AFigureThatMeasuresNothingIsLeftOut) {
  auto r = fleet();
  r.ranks[7].node = 4;  // n3 keeps rank 6 alone
  const auto text = exposition(r);
  EXPECT_EQ(text.find("gpuscale_node_local_busbw_bytes_per_second{Hostname=\"n3\"}"), std::string::npos) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_bytes_per_second{Hostname=\"n1\"} 90000000000"));
}

TEST(PromReporter, PassedRunAndNoChecksWritesNoCheckFamily) {
  auto r = fleet();
  r.checks.clear();
  const auto text = exposition(r);
  EXPECT_TRUE(has_line(text, "gpuscale_verdict_passed{Hostname=\"n0\"} 1")) << text;
  EXPECT_EQ(text.find("gpuscale_check{"), std::string::npos);
  EXPECT_EQ(text.find("# TYPE gpuscale_check gauge"), std::string::npos);
  // Each check that ran passed.
  int passed = 0;
  for (const auto& line : lines_of(text))
    if (line.rfind("gpuscale_check_passed{", 0) == 0) {
      EXPECT_EQ(line.substr(line.size() - 2), " 1") << line;
      ++passed;
    }
  EXPECT_GT(passed, 0) << text;
}

TEST(PromReporter, OneHelpAndTypePerMetricBeforeItsSamplesWhichStayTogether) {
  auto r = fleet();
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
  EXPECT_TRUE(has_line(text, "gpuscale_burn_sustained_flops{" + gpu(0) + ",precision=\"fp16\"} 800000000000000"));
}

// A finding that names whole nodes and no rank (a node's own figure out of line) is labelled with
// its nodes' hosts, not as one of the whole job.
TEST(PromReporter, AFindingOfNodesCarriesTheirHosts) {
  auto r = fleet();
  Check c{"node-outlier", Severity::warning, {}, "node 2: node-local busbw 40 GB/s"};
  c.nodes = {2};
  r.checks = {c, Check{"nccl-mismatch", Severity::warning, {}, "two NCCL versions"}};
  const auto text = exposition(r);
  EXPECT_TRUE(
      has_line(text, "gpuscale_check{Hostname=\"n2\",id=\"node-outlier\",severity=\"warning\",scope=\"node\"} 1"))
      << text;
  EXPECT_TRUE(
      has_line(text, "gpuscale_check{Hostname=\"n0\",id=\"nccl-mismatch\",severity=\"warning\",scope=\"job\"} 1"));
}

// Every check that ran is a 0/1 series, so a dashboard tells passed from not run. The fleet ran env,
// burn and collectives: slow-node (raised on n2) and numa-binding (a warning on rank 1, of n0) fail in
// the whole job's file and in their node's, and pass in the other nodes'; ecc-uncorrected ran and
// passed everywhere; compute's and train's checks did not run.
TEST(PromReporter, EachCheckThatRanPassedOrFailedPerFile) {
  auto run = fleet();
  run.checks.push_back(Check{"numa-binding", Severity::warning, {1}, "bind rank 1 to NUMA node 0"});
  const auto whole = exposition(run);
  EXPECT_TRUE(has_line(whole, "# TYPE gpuscale_check_passed gauge")) << whole;
  EXPECT_TRUE(has_line(whole, "gpuscale_check_passed{Hostname=\"n0\",id=\"slow-node\"} 0"));
  EXPECT_TRUE(has_line(whole, "gpuscale_check_passed{Hostname=\"n0\",id=\"numa-binding\"} 0"));
  EXPECT_TRUE(has_line(whole, "gpuscale_check_passed{Hostname=\"n0\",id=\"ecc-uncorrected\"} 1"));
  EXPECT_EQ(whole.find("id=\"compute-straggler\""), std::string::npos) << "compute did not run";
  EXPECT_EQ(whole.find("id=\"train-ddp-matches-single\""), std::string::npos) << "train did not run";
  EXPECT_EQ(whole.find("id=\"budget-exceeded\""), std::string::npos) << "a phase command keeps no budget";
  auto budgeted = run;
  budgeted.budget = BudgetRecord{60, {}};
  EXPECT_TRUE(has_line(exposition(budgeted), "gpuscale_check_passed{Hostname=\"n0\",id=\"budget-exceeded\"} 1"));
  const auto n2 = exposition(run, 2);
  EXPECT_TRUE(has_line(n2, "gpuscale_check_passed{Hostname=\"n2\",id=\"slow-node\"} 0")) << n2;
  EXPECT_TRUE(has_line(n2, "gpuscale_check_passed{Hostname=\"n2\",id=\"numa-binding\"} 1"));
  const auto n0 = exposition(run, 0);
  EXPECT_TRUE(has_line(n0, "gpuscale_check_passed{Hostname=\"n0\",id=\"slow-node\"} 1")) << n0;
  EXPECT_TRUE(has_line(n0, "gpuscale_check_passed{Hostname=\"n0\",id=\"numa-binding\"} 0"));
  // A check of the whole job (no rank, no node) fails in every node's file.
  auto r = run;
  r.checks.push_back(Check{"nccl-mismatch", Severity::error, {}, "two NCCL versions"});
  EXPECT_TRUE(has_line(exposition(r, 3), "gpuscale_check_passed{Hostname=\"n3\",id=\"nccl-mismatch\"} 0"));
  // Ranks sharing GPUs in a test layout: the checks of speed say nothing there, so they did not run.
  r.emulation = Emulation{2, true};
  const auto shared = exposition(r);
  EXPECT_EQ(shared.find("gpuscale_check_passed{Hostname=\"n0\",id=\"slow-node\"}"), std::string::npos) << shared;
  EXPECT_TRUE(has_line(shared, "gpuscale_check_passed{Hostname=\"n0\",id=\"ecc-uncorrected\"} 1"));
}

// One node's file: its GPUs, its node's series, and the job's series under its Hostname.
TEST(PromReporter, ANodesFileHoldsItsOwnFiguresAndTheJobsUnderItsHost) {
  const auto text = exposition(fleet(), 2);
  EXPECT_TRUE(has_line(text, "gpuscale_verdict_passed{Hostname=\"n2\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_burn_sustained_flops{" + gpu(5) + ",precision=\"bf16\"} 600000000000000"));
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_score{Hostname=\"n2\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_bytes_per_second{Hostname=\"n2\"} 40000000000"));
  for (const char* other : {"\"n0\"", "\"n1\"", "\"n3\""})
    EXPECT_EQ(text.find(std::string("Hostname=") + other), std::string::npos) << other << '\n' << text;
  const auto files = prom_node_files(fleet());
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[2].node, 2);
  EXPECT_EQ(files[2].name, "gpuscale-n2.prom");
}

TEST(PromReporter, NodesSharingAHostNameAreToldApart) {
  auto r = fleet();
  for (auto& e : r.ranks) e.host = "vm";
  const auto text = exposition(r);
  EXPECT_TRUE(
      has_line(text, "gpuscale_burn_sustained_flops{" + gpu(5, "vm/n2") + ",precision=\"bf16\"} 600000000000000"))
      << text;
  EXPECT_TRUE(
      has_line(text, "gpuscale_check{Hostname=\"vm/n2\",id=\"slow-node\",severity=\"error\",scope=\"node\"} 1"));
  EXPECT_TRUE(has_line(text, "gpuscale_node_local_busbw_bytes_per_second{Hostname=\"vm/n2\"} 40000000000")) << text;
  EXPECT_TRUE(has_line(text, "gpuscale_suspect_score{Hostname=\"vm/n2\"} 1"));
  EXPECT_EQ(prom_node_files(r)[2].name, "gpuscale-vm_n2.prom");
}

TEST(PromReporter, EscapesBackslashQuoteAndNewlineInLabelValues) {
  EXPECT_EQ(prom_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  auto r = fleet();
  r.ranks[5].host = "n\"2\\\n";
  const auto text = exposition(r);
  EXPECT_TRUE(
      has_line(text, "gpuscale_check{Hostname=\"n\\\"2\\\\\\n\",id=\"slow-node\",severity=\"error\",scope=\"node\"} 1"))
      << text;
}

}  // namespace
}  // namespace gpuscale::results
