// The burn's rules on synthetic records, each on its pass and fail side, and the majority rule of
// the output comparison.
#include "phases/burn/BurnChecks.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

BurnRecord gpu(int rank, double tflops, std::string hash = "h") {
  BurnRecord r;
  r.rank = rank;
  r.host = "node" + std::to_string(rank / 8);
  r.gpu = "NVIDIA H200";
  r.precision = "bf16";
  r.shape = "M8192 N8192 K8192";
  r.algorithm = "cublasGemmEx default";
  r.sustained_tflops = tflops;
  r.output_hashes = {hash, hash};
  r.throttle_share = {{"sw_power_cap", 1.0}, {"hw_slowdown", 0}, {"sw_thermal", 0}, {"hw_thermal", 0},
                      {"hw_power_brake", 0}};
  return r;
}

std::vector<Check> with_id(const std::vector<Check>& checks, const std::string& id) {
  std::vector<Check> out;
  std::copy_if(checks.begin(), checks.end(), std::back_inserter(out), [&](const Check& c) { return c.id == id; });
  return out;
}

TEST(HashVote, TheMinorityDissents) {
  const auto v = vote_hashes({"a", "a", "b", "a"});
  EXPECT_EQ(v.majority, "a");
  EXPECT_FALSE(v.tie);
  EXPECT_EQ(v.dissenters, std::vector<std::size_t>{2});
}

TEST(HashVote, AgreementHasNoDissenters) {
  const auto v = vote_hashes({"a", "a"});
  EXPECT_EQ(v.majority, "a");
  EXPECT_TRUE(v.dissenters.empty());
}

TEST(HashVote, NoMajorityIsATieNamingEveryone) {
  const auto v = vote_hashes({"a", "b"});
  EXPECT_TRUE(v.tie);
  EXPECT_EQ(v.dissenters.size(), 2u);
  EXPECT_TRUE(vote_hashes({"a", "a", "b", "b"}).tie);
}

TEST(BurnChecks, HealthyGpusRaiseNothing) {
  std::vector<BurnRecord> records = {gpu(0, 660), gpu(1, 650), gpu(2, 655)};
  EXPECT_TRUE(burn_checks_marked(records, 0.10).empty());
}

TEST(BurnChecks, SlowSustainedAgainstTheMedian) {
  std::vector<BurnRecord> records = {gpu(0, 660), gpu(1, 500), gpu(2, 655)};
  RecordMarks marks;
  const auto slow = with_id(burn_checks_marked(records, 0.10, &marks), "gpu-slow-sustained");
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].ranks, std::vector<int>{1});
  EXPECT_EQ(slow[0].severity, Severity::warning);
  EXPECT_NE(slow[0].message.find("node0"), std::string::npos);
  EXPECT_TRUE(marks.has(BurnMark::slow, 1));
  EXPECT_EQ(marks.size(), 1u);
  // Within the threshold: not slow.
  records = {gpu(0, 660), gpu(1, 600), gpu(2, 655)};
  EXPECT_TRUE(with_id(burn_checks_marked(records, 0.10), "gpu-slow-sustained").empty());
}

TEST(BurnChecks, CpuRecordsAreNotComparedForSpeed) {
  std::vector<BurnRecord> records = {gpu(0, 0.02), gpu(1, 0.001)};
  for (auto& r : records) r.gpu = "cpu";
  EXPECT_TRUE(with_id(burn_checks_marked(records, 0.10), "gpu-slow-sustained").empty());
}

TEST(BurnChecks, ThermalAndHardwareSlowdown) {
  std::vector<BurnRecord> records = {gpu(0, 660), gpu(1, 660)};
  records[0].throttle_share["hw_thermal"] = 0.2;
  records[1].throttle_share["hw_power_brake"] = 0.05;
  const auto checks = burn_checks_marked(records, 0.10);
  const auto thermal = with_id(checks, "gpu-thermal-throttle");
  const auto hardware = with_id(checks, "gpu-hw-slowdown");
  ASSERT_EQ(thermal.size(), 1u);
  EXPECT_EQ(thermal[0].ranks, std::vector<int>{0});
  ASSERT_EQ(hardware.size(), 1u);
  EXPECT_EQ(hardware[0].ranks, std::vector<int>{1});
  EXPECT_EQ(hardware[0].severity, Severity::error);
}

TEST(BurnChecks, ErrorsUnderLoad) {
  std::vector<BurnRecord> records = {gpu(0, 660), gpu(1, 660), gpu(2, 660)};
  records[0].counters.ecc_corrected = 0;
  records[1].counters.ecc_corrected = 3;
  records[2].counters.ecc_uncorrected = 1;
  const auto errors = with_id(burn_checks_marked(records, 0.10), "gpu-errors-under-load");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].ranks, std::vector<int>{1});
  EXPECT_EQ(errors[0].severity, Severity::warning);
  EXPECT_EQ(errors[1].ranks, std::vector<int>{2});
  EXPECT_EQ(errors[1].severity, Severity::error);
}

TEST(BurnChecks, WrongResultAgainstTheMajority) {
  std::vector<BurnRecord> records = {gpu(0, 660, "a"), gpu(1, 660, "a"), gpu(2, 660, "b")};
  RecordMarks marks;
  const auto wrong = with_id(burn_checks_marked(records, 0.10, &marks), "gpu-wrong-result");
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_EQ(wrong[0].ranks, std::vector<int>{2});
  EXPECT_EQ(wrong[0].severity, Severity::error);
  EXPECT_TRUE(marks.has(BurnMark::wrong_result, 2));
  EXPECT_FALSE(marks.has(BurnMark::wrong_result, 0));
}

TEST(BurnChecks, OnlyGpusOfTheSameAlgorithmAreCompared) {
  std::vector<BurnRecord> records = {gpu(0, 660, "a"), gpu(1, 660, "b")};
  records[1].algorithm = "another";
  EXPECT_TRUE(with_id(burn_checks_marked(records, 0.10), "gpu-wrong-result").empty());
}

TEST(BurnChecks, AnOutputThatChangesDuringTheBurnIsWrong) {
  std::vector<BurnRecord> records = {gpu(0, 660)};
  records[0].output_hashes = {"a", "a", "c"};
  const auto wrong = with_id(burn_checks_marked(records, 0.10), "gpu-wrong-result");
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_EQ(wrong[0].ranks, std::vector<int>{0});
}

TEST(BurnChecks, MissingTelemetryIsSaidOnce) {
  std::vector<BurnRecord> records = {gpu(0, 660), gpu(1, 660)};
  for (auto& r : records) r.telemetry_unavailable = "no NVML";
  const auto notes = with_id(burn_checks_marked(records, 0.10), "burn-telemetry-unavailable");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(notes[0].severity, Severity::info);
}

}  // namespace
}  // namespace gpuscale::results
