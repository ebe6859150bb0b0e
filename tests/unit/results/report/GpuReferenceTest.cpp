// The model table and its floors, one test per model, and the floor rule on records of a lone GPU:
// a healthy H200 at its power cap passes, one shared with another process fails.
#include "results/base/GpuReference.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "judge/FloorChecks.hpp"
#include "results/base/GpuPeak.hpp"
#include "tests/unit/judge/Marked.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

struct Expected {
  const char* cuda_name;
  const char* model;
  double burn_tflops;  // bf16 floor
  double h2d_gbps;     // floor from the model's own link
  double hbm_gbps;
  std::optional<double> nvlink_gbps;
};

// Each floor worked out by hand from the data sheets: 56% of dense bf16, 70% of the PCIe link per
// direction, 75% of HBM.
const Expected kModels[] = {
    {"NVIDIA H200", "H200 SXM", 0.56 * 989.4, 0.70 * 63.008, 0.75 * 4800, 450},
    {"NVIDIA H200 NVL", "H200 NVL", 0.56 * 835, 0.70 * 63.008, 0.75 * 4800, 450},
    {"NVIDIA H100 80GB HBM3", "H100 SXM", 0.56 * 989.4, 0.70 * 63.008, 0.75 * 3350, 450},
    {"NVIDIA H100 PCIe", "H100 PCIe", 0.56 * 756, 0.70 * 63.008, 0.75 * 2000, 300},
    {"NVIDIA H100 NVL", "H100 NVL", 0.56 * 835, 0.70 * 63.008, 0.75 * 3900, 300},
    {"NVIDIA A100-SXM4-80GB", "A100 80GB SXM", 0.56 * 312, 0.70 * 31.504, 0.75 * 2039, 300},
    {"NVIDIA A100-SXM4-40GB", "A100 40GB SXM", 0.56 * 312, 0.70 * 31.504, 0.75 * 1555, 300},
    {"NVIDIA A100 80GB PCIe", "A100 80GB PCIe", 0.56 * 312, 0.70 * 31.504, 0.75 * 1935, 300},
    {"NVIDIA A100-PCIE-40GB", "A100 40GB PCIe", 0.56 * 312, 0.70 * 31.504, 0.75 * 1555, 300},
    {"NVIDIA B200", "B200", 0.56 * 2250, 0.70 * 63.008, 0.75 * 8000, 900},
    {"NVIDIA L40S", "L40S", 0.56 * 362, 0.70 * 31.504, 0.75 * 864, std::nullopt},
};

class ModelTable : public ::testing::TestWithParam<Expected> {};

TEST_P(ModelTable, FloorsFollowTheDataSheet) {
  const auto& e = GetParam();
  const auto* reference = find_gpu_reference(e.cuda_name);
  ASSERT_NE(reference, nullptr) << e.cuda_name;
  EXPECT_EQ(reference->model, e.model);
  EXPECT_EQ(reference->nvlink_gbps, e.nvlink_gbps);
  EXPECT_FALSE(reference->source.empty());
  const auto burn = burn_floor(e.cuda_name, "bf16");
  ASSERT_TRUE(burn);
  EXPECT_NEAR(burn->value, e.burn_tflops, 0.01);
  EXPECT_NE(burn->source.find("dense bf16"), std::string::npos) << burn->source;
  EXPECT_NEAR(burn_floor(e.cuda_name, "fp16")->value, e.burn_tflops, 0.01);
  const auto h2d = host_link_floor(e.cuda_name, std::nullopt, std::nullopt);
  ASSERT_TRUE(h2d);
  EXPECT_NEAR(h2d->value, e.h2d_gbps, 0.01);
  EXPECT_NE(h2d->source.find("the model's own link"), std::string::npos) << h2d->source;
  EXPECT_NEAR(hbm_floor(e.cuda_name)->value, e.hbm_gbps, 0.01);
  // A measured known-good figure, where the table has one, passes its own floors.
  if (reference->measured_burn_tflops) {
    EXPECT_GT(*reference->measured_burn_tflops, burn->value);
  }
  if (reference->measured_h2d_gbps) {
    EXPECT_GT(*reference->measured_h2d_gbps, h2d->value);
  }
  if (reference->measured_hbm_gbps) {
    EXPECT_GT(*reference->measured_hbm_gbps, hbm_floor(e.cuda_name)->value);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryModel, ModelTable, ::testing::ValuesIn(kModels));

TEST(GpuReference, EveryModelOfTheTableIsTested) {
  for (const auto& r : gpu_references()) {
    EXPECT_TRUE(std::any_of(std::begin(kModels), std::end(kModels), [&](const Expected& e) { return e.model == r.model; }))
        << r.model;
    EXPECT_EQ(find_gpu_reference(r.cuda_name), &r) << r.cuda_name << " is matched by an earlier row";
  }
}

TEST(GpuReference, UnknownModelsAndOtherPrecisionsHaveNoFloor) {
  EXPECT_EQ(find_gpu_reference("NVIDIA GeForce RTX 4090"), nullptr);
  EXPECT_FALSE(burn_floor("NVIDIA GeForce RTX 4090", "bf16"));
  EXPECT_FALSE(hbm_floor("NVIDIA GeForce RTX 4090"));
  EXPECT_FALSE(host_link_floor("NVIDIA GeForce RTX 4090", std::nullopt, std::nullopt));
  EXPECT_FALSE(burn_floor("NVIDIA H200", "fp32"));
  // The link NVML read gives an unknown model its host-link floor, and overrides a known model's.
  EXPECT_NEAR(host_link_floor("NVIDIA GeForce RTX 4090", 4u, 16u)->value, 0.70 * 31.504, 0.01);
  const auto narrow = host_link_floor("NVIDIA H200", 5u, 8u);
  EXPECT_NEAR(narrow->value, 0.70 * 31.504, 0.01);
  EXPECT_NE(narrow->source.find("gen5 x8"), std::string::npos);
  EXPECT_NE(narrow->source.find("as NVML read it"), std::string::npos);
}

// The H200 measurements the floors were set from: alone at 700 W, and beside another process.
TEST(GpuReference, H200BurnFloorPassesAloneAndFailsShared) {
  const double floor = burn_floor("NVIDIA H200", "bf16")->value;
  EXPECT_GE(floor, 550);
  EXPECT_LE(floor, 600);
  EXPECT_GT(674, floor);
  EXPECT_LT(372, floor);  // beside a 96 MiB process at ~30% duty
  EXPECT_LT(316, floor);  // beside a second process computing bf16 matmuls
  EXPECT_GT(55.2, host_link_floor("NVIDIA H200", 5u, 16u)->value);
  EXPECT_GT(4263, hbm_floor("NVIDIA H200")->value);
}

RunReport lone_h200(double tflops, double h2d, double d2h, double hbm) {
  RunReport run;
  BurnRecord b;
  b.host = "node0";
  b.gpu = "NVIDIA H200";
  b.precision = "bf16";
  b.sustained_tflops = tflops;
  run.burn = {b};
  LinksRecord l;
  l.host = "node0";
  l.gpu = "NVIDIA H200";
  // One sample each, the time its rate says.
  const auto copy = [](const char* direction, double gbps) {
    return CopyFigure{direction, "pinned", "solo", 1ull << 30, {(1ull << 30) / gbps / 1e9}, gbps};
  };
  l.copies = {copy("h2d", h2d), copy("d2h", d2h)};
  l.hbm = {{"copy", 8ull << 30, {(8ull << 30) / hbm / 1e9}, hbm}};
  l.pcie = {5, 16, 5, 16, 10};
  run.links = {l};
  return run;
}

std::vector<std::string> ids(const std::vector<Check>& checks) {
  std::vector<std::string> out;
  for (const auto& c : checks) out.push_back(c.id + ":" + std::string(to_string(c.severity)));
  return out;
}

TEST(FloorChecks, HealthyLoneH200PassesWithItsFloorsRecorded) {
  auto run = lone_h200(674, 55.2, 55.3, 4270);
  EXPECT_TRUE(floor_checks_marked(run).empty());
  EXPECT_NEAR(*run.marks.value(BurnMark::floor, 0), 0.56 * 989.4, 0.01);
  EXPECT_NEAR(*run.marks.value(LinksMark::h2d_floor, 0), 0.70 * 63.008, 0.01);
  EXPECT_NEAR(*run.marks.value(LinksMark::hbm_floor, 0), 3600, 0.01);
  EXPECT_FALSE(run.marks.has(BurnMark::under_floor, 0) || run.marks.has(LinksMark::h2d_under_floor, 0) ||
               run.marks.has(LinksMark::d2h_under_floor, 0) || run.marks.has(LinksMark::hbm_under_floor, 0));
}

TEST(FloorChecks, EachFigureUnderItsFloorIsAnError) {
  auto shared = lone_h200(372, 55.2, 55.3, 4270);
  auto checks = floor_checks_marked(shared);
  EXPECT_EQ(ids(checks), std::vector<std::string>{"gpu-slow-sustained:error"});
  EXPECT_NE(checks[0].message.find("372.0 TFLOP/s, under the model's floor of 554.1"), std::string::npos)
      << checks[0].message;
  EXPECT_TRUE(shared.marks.has(BurnMark::slow, 0));
  EXPECT_TRUE(shared.marks.has(BurnMark::under_floor, 0));
  auto link = lone_h200(674, 55.2, 30, 4270);
  checks = floor_checks_marked(link);
  EXPECT_EQ(ids(checks), std::vector<std::string>{"h2d-slow:error"});
  EXPECT_NE(checks[0].message.find("pinned d2h 30.0 GB/s"), std::string::npos) << checks[0].message;
  EXPECT_TRUE(link.marks.has(LinksMark::d2h_under_floor, 0));
  EXPECT_FALSE(link.marks.has(LinksMark::h2d_under_floor, 0)) << "each direction is marked on its own";
  EXPECT_FALSE(link.marks.has(LinksMark::hbm_under_floor, 0) || link.marks.has(BurnMark::under_floor, 0));
  auto memory = lone_h200(674, 55.2, 55.3, 3500);
  EXPECT_EQ(ids(floor_checks_marked(memory)), std::vector<std::string>{"hbm-slow:error"});
  EXPECT_TRUE(memory.marks.has(LinksMark::hbm_under_floor, 0));
  EXPECT_FALSE(memory.marks.has(LinksMark::h2d_under_floor, 0) || memory.marks.has(LinksMark::d2h_under_floor, 0));
}

TEST(FloorChecks, MarksAreClearedWhenJudgedAgain) {
  auto run = lone_h200(372, 30, 30, 3500);
  floor_checks_marked(run);
  ASSERT_TRUE(run.marks.has(BurnMark::under_floor, 0) && run.marks.has(LinksMark::h2d_under_floor, 0) &&
              run.marks.has(LinksMark::hbm_under_floor, 0));
  const auto healthy = lone_h200(674, 55, 55, 4270);
  run.burn[0].sustained_tflops = 674;
  run.links[0].copies = healthy.links[0].copies;
  run.links[0].hbm = healthy.links[0].hbm;
  EXPECT_TRUE(floor_checks_marked(run).empty());
  EXPECT_FALSE(run.marks.has(BurnMark::under_floor, 0) || run.marks.has(LinksMark::h2d_under_floor, 0) ||
               run.marks.has(LinksMark::d2h_under_floor, 0) || run.marks.has(LinksMark::hbm_under_floor, 0));
}

// The floor is held to the fastest of a figure's copies: a host busy for part of the measurement pulls
// the median under the floor of a healthy link (43.7 GB/s on a gen5 x16 whose copies read 55), a link
// trained down is slow in every copy.
TEST(FloorChecks, ALinkIsHeldToItsFastestCopy) {
  const double gib = 1ull << 30;
  const auto seconds = [gib](double gbps) { return gib / gbps / 1e9; };
  auto dip = lone_h200(674, 43.7, 55.0, 4270);
  dip.links[0].copies[0].samples_s = {seconds(55.1), seconds(43.5), seconds(43.7), seconds(43.9), seconds(54.9)};
  EXPECT_TRUE(floor_checks_marked(dip).empty()) << "a dip in 3 of 5 copies";
  EXPECT_FALSE(dip.marks.has(LinksMark::h2d_under_floor, 0));

  auto trained_down = lone_h200(674, 26.3, 55.0, 4270);  // gen5 x8
  trained_down.links[0].copies[0].samples_s = {seconds(26.2), seconds(26.3), seconds(26.4), seconds(26.3), seconds(26.3)};
  const auto checks = floor_checks_marked(trained_down);
  ASSERT_EQ(ids(checks), std::vector<std::string>{"h2d-slow:error"});
  EXPECT_NE(checks[0].message.find("pinned h2d 26.4 GB/s at best of 5 copies (median 26.3), under the model's floor "
                                   "of 44.1 GB/s"),
            std::string::npos)
      << checks[0].message;
  EXPECT_TRUE(trained_down.marks.has(LinksMark::h2d_under_floor, 0));

  auto memory = lone_h200(674, 55.2, 55.3, 3000);
  memory.links[0].hbm[0].samples_s = {8 * seconds(4200), 8 * seconds(3000), 8 * seconds(3000)};
  EXPECT_TRUE(floor_checks_marked(memory).empty()) << "one call of three reached 4200 GB/s";
}

TEST(FloorChecks, UnknownModelSaysItHasNoFloor) {
  auto run = lone_h200(10, 20, 20, 500);
  run.burn[0].gpu = run.links[0].gpu = "NVIDIA GeForce RTX 4090";
  run.links[0].pcie = {};
  const auto checks = floor_checks_marked(run);
  EXPECT_EQ(ids(checks), std::vector<std::string>{"gpu-floor-unknown:info"});
  EXPECT_EQ(checks[0].ranks, std::vector<int>{0});
  EXPECT_FALSE(run.marks.value(BurnMark::floor, 0));
  auto cpu = lone_h200(0.1, 5, 5, 10);
  cpu.burn[0].gpu = cpu.links[0].gpu = "cpu";
  EXPECT_TRUE(floor_checks_marked(cpu).empty());
}

}  // namespace
}  // namespace gpuscale::results
