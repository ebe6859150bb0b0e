#include "phases/compute/ComputeRecord.hpp"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "phases/compute/ComputeTable.hpp"
#include "results/base/GpuPeak.hpp"
#include "results/schema/RunReport.hpp"
#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

ComputeRecord record(int rank, double median_s) {
  ComputeRecord r;
  r.rank = rank;
  r.gpu = "NVIDIA H200";
  r.set = "default";
  r.name = "matmul";
  r.layer = "linear";
  r.shape = "M4096 N4096 K4096";
  r.precision = "bf16";
  r.pass = "fwd";
  r.flops = 2.0 * 4096 * 4096 * 4096;
  r.samples_s = {median_s, median_s};
  r.time_s = summarize(r.samples_s);
  r.tflops = r.flops / median_s / 1e12;
  r.peak_tflops = peak_tflops(r.gpu, r.precision);
  r.algorithm = "cublasLt algo 66";
  r.verification = {true, true, 1.5e-3, 1e-2, "M2048 N4096 K4096"};
  return r;
}

TEST(ComputeRecord, JsonRoundTripInsideRunReport) {
  RunReport report;
  report.compute = {record(0, 1e-4), record(1, 1.1e-4)};
  report.compute[1].skipped_reason = "out of memory";
  report.compute[1].peak_tflops.reset();
  const nlohmann::json j = report;
  const auto back = j.get<RunReport>();
  ASSERT_EQ(back.compute.size(), 2u);
  EXPECT_EQ(nlohmann::json(back.compute[0]), nlohmann::json(report.compute[0]));
  EXPECT_EQ(back.compute[1].skipped_reason, "out of memory");
  EXPECT_FALSE(back.compute[1].peak_tflops.has_value());
  EXPECT_DOUBLE_EQ(*back.compute[0].peak_tflops, 989.4);
  // A report without the field (written before the compute phase existed) still reads.
  nlohmann::json old = j;
  old.erase("compute");
  EXPECT_TRUE(old.get<RunReport>().compute.empty());
}

TEST(ComputeRecord, StragglerPastThresholdOnly) {
  std::vector<ComputeRecord> records = {record(0, 1.00e-3), record(1, 1.05e-3), record(2, 1.00e-3), record(3, 1.25e-3)};
  RecordMarks marks;
  const auto checks = compute_checks_marked(records, 0.10, &marks);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "compute-straggler");
  EXPECT_EQ(checks[0].ranks, std::vector<int>{3});
  EXPECT_TRUE(marks.has(ComputeMark::straggler, 3));
  EXPECT_FALSE(marks.has(ComputeMark::straggler, 1));
  std::ostringstream table;
  write_compute_table(records, marks, table);
  EXPECT_EQ(table.str().find("STRAGGLER"), table.str().rfind("STRAGGLER")) << "one row marked: " << table.str();
  EXPECT_NE(table.str().find("STRAGGLER"), std::string::npos) << table.str();
  for (auto& r : records) r.gpu = "cpu";  // the cpu backend's timings are not compared
  EXPECT_TRUE(compute_checks_marked(records, 0.10).empty());
}

TEST(ComputeRecord, FailedOrNanCheckIsAnError) {
  std::vector<ComputeRecord> records = {record(0, 1e-3), record(1, 1e-3)};
  records[1].verification.passed = false;
  records[1].verification.relative_error = std::nan("");
  const auto checks = compute_checks_marked(records, 0.10);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].id, "compute-reference-mismatch");
  EXPECT_EQ(checks[0].severity, Severity::error);
  EXPECT_NE(checks[0].message.find("NaN"), std::string::npos);
}

TEST(ComputeRecord, TableHasOneRowPerRecord) {
  std::ostringstream out;
  write_compute_table({record(0, 1e-3), record(1, 2e-3)}, {}, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("137.4"), std::string::npos) << text;  // 2 * 4096^3 / 1 ms
  EXPECT_NE(text.find("68.7"), std::string::npos) << text;
  EXPECT_NE(text.find("ok 1.5e-03"), std::string::npos) << text;
  std::ostringstream empty;
  write_compute_table({}, {}, empty);
  EXPECT_TRUE(empty.str().empty());
}

// A figure over the GPU's dense peak (an algorithm doing fewer multiply-adds than counted) is marked,
// with one footnote saying why; a table without one has neither.
TEST(ComputeRecord, FiguresOverThePeakAreMarkedWithAFootnote) {
  auto under = record(0, 1e-3);  // 137.4 TFLOP/s
  under.peak_tflops = 274.8;
  std::ostringstream plain;
  write_compute_table({under}, {}, plain);
  EXPECT_NE(plain.str().find(" 50 "), std::string::npos) << plain.str();
  EXPECT_EQ(plain.str().find('*'), std::string::npos) << plain.str();
  auto over = record(1, 1e-3);
  over.peak_tflops = 100.0;
  std::ostringstream marked;
  write_compute_table({under, over}, {}, marked);
  EXPECT_NE(marked.str().find(" 137* "), std::string::npos) << marked.str();
  EXPECT_NE(marked.str().find("* over the dense peak"), std::string::npos) << marked.str();
}

TEST(GpuPeak, KnownGpusAndPrecisions) {
  EXPECT_DOUBLE_EQ(*peak_tflops("NVIDIA H200", "tf32"), 494.7);
  EXPECT_DOUBLE_EQ(*peak_tflops("NVIDIA H100 80GB HBM3", "fp32"), 67);
  EXPECT_DOUBLE_EQ(*peak_tflops("NVIDIA H100 PCIe", "bf16"), 756);
  EXPECT_DOUBLE_EQ(*peak_tflops("NVIDIA A100-SXM4-80GB", "fp16"), 312);
  EXPECT_FALSE(peak_tflops("cpu", "fp32").has_value());
  EXPECT_FALSE(peak_tflops("NVIDIA H200", "fp8").has_value());
}

}  // namespace
}  // namespace gpuscale::results
