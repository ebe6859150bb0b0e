#include "phases/compute/run/ComputePlan.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "launch/Cli.hpp"

namespace gpuscale::launch {
namespace {

ComputePlan plan_for(std::vector<const char*> args, bool quick = false) {
  args.insert(args.begin(), {"gpuscale", "compute"});
  const auto inv = parse_command_line(static_cast<int>(args.size()), args.data());
  return parse_compute_plan(inv.options, make_profile(quick || inv.common.quick, false).compute);
}

TEST(ComputePlan, DefaultsAreTheSeedShapesInEveryPrecision) {
  const auto plan = plan_for({});
  ASSERT_EQ(plan.items.size(), 8u);  // matmul and conv, 4 precisions each
  EXPECT_EQ(plan.items[0].shape.name, "matmul");
  EXPECT_EQ(plan.items[3].precision, workloads::Precision::bf16);
  // --layout auto: NCHW for fp32, NHWC for bf16.
  EXPECT_EQ(std::get<workloads::Conv2dShape>(plan.items[4].shape.shape).layout, workloads::Layout::nchw);
  EXPECT_EQ(std::get<workloads::Conv2dShape>(plan.items[7].shape.shape).layout, workloads::Layout::nhwc);
  EXPECT_EQ(plan.bench.iterations, 20);
  EXPECT_EQ(plan.tuning.conv_search, workloads::AlgoSearch::heuristic);
  EXPECT_EQ(plan.tuning.matmul_path, workloads::MatmulPath::lt);
  EXPECT_EQ(plan.tuning.conv_plans, 8);
}

TEST(ComputePlan, UserShapesReplaceTheDefaults) {
  const auto plan = plan_for({"--mnk", "64,32,16;8,8,8", "--conv", "2,3,8,8,4,3,3,1,1,1", "--precision", "fp32",
                              "--cudnn-algo", "exhaustive", "--iters", "3", "--layout", "nhwc"});
  ASSERT_EQ(plan.items.size(), 3u);
  EXPECT_EQ(plan.items[0].shape.shape, workloads::LayerShape{(workloads::LinearShape{64, 32, 16})});
  EXPECT_EQ(std::get<workloads::Conv2dShape>(plan.items[2].shape.shape).layout, workloads::Layout::nhwc);
  EXPECT_EQ(plan.tuning.conv_search, workloads::AlgoSearch::exhaustive);
  EXPECT_EQ(plan.bench.iterations, 3);
}

TEST(ComputePlan, WarmupTimeIsInSeconds) {
  EXPECT_DOUBLE_EQ(plan_for({}).bench.warmup_s, 0);
  EXPECT_DOUBLE_EQ(plan_for({"--warmup-ms", "1500"}).bench.warmup_s, 1.5);
}

TEST(ComputePlan, MinimumTimedWindowIsInSeconds) {
  EXPECT_DOUBLE_EQ(plan_for({}).bench.min_time_s, 0);
  EXPECT_DOUBLE_EQ(plan_for({"--min-time-ms", "1000"}).bench.min_time_s, 1.0);
}

TEST(ComputePlan, SettledTuningWindowIsInSeconds) {
  EXPECT_DOUBLE_EQ(plan_for({}).tuning.settled_window_s, 0) << "short rounds alone";
  EXPECT_DOUBLE_EQ(plan_for({"--min-time-ms", "1000"}).tuning.settled_window_s, 0) << "a window of its own";
  EXPECT_DOUBLE_EQ(plan_for({"--tune-window-ms", "500"}).tuning.settled_window_s, 0.5);
}

TEST(ComputePlan, PassesOption) {
  EXPECT_EQ(plan_for({}).bench.passes, workloads::kEveryPass);
  EXPECT_EQ(plan_for({"--passes", "all"}).bench.passes, workloads::kEveryPass);
  EXPECT_EQ(plan_for({"--passes", "fwd"}).bench.passes, workloads::pass_bit(workloads::Pass::forward));
  EXPECT_EQ(plan_for({"--passes", "bwd_weight,fwd"}).bench.passes,
            workloads::pass_bit(workloads::Pass::forward) | workloads::pass_bit(workloads::Pass::backward_weight));
}

TEST(ComputePlan, CudnnPlanOptions) {
  EXPECT_EQ(plan_for({"--cudnn-plans", "3"}).tuning.conv_plans, 3);
  EXPECT_FALSE(plan_for({}).tuning.conv_runtime_compiled);
  EXPECT_TRUE(plan_for({"--cudnn-runtime-compiled"}).tuning.conv_runtime_compiled);
}

TEST(ComputePlan, MatmulPathOption) {
  EXPECT_EQ(plan_for({"--matmul-path", "gemmex"}).tuning.matmul_path, workloads::MatmulPath::gemmex);
  EXPECT_EQ(plan_for({"--matmul-path", "lt"}).tuning.matmul_path, workloads::MatmulPath::lt);
}

TEST(ComputePlan, SetsAndQuick) {
  const auto plan = plan_for({"--shapes", "mlp,cnn", "--precision", "bf16", "--quick"});
  ASSERT_EQ(plan.items.size(), 2u);
  EXPECT_EQ(plan.items[1].shape.set, "cnn");
  EXPECT_EQ(plan.bench.iterations, 5);
}

TEST(ComputePlan, BadInputIsAUsageError) {
  for (std::vector<const char*> bad : {std::vector<const char*>{"--mnk", "1,2"},
                                       {"--conv", "1,1,2,2,1,3,3"},
                                       {"--precision", "fp8"},
                                       {"--layout", "chwn"},
                                       {"--cudnn-algo", "best"},
                                       {"--iters", "0"},
                                       {"--straggler-threshold", "-1"},
                                       {"--shapes", "vgg"},
                                       {"--workspace-mb", "-5"},
                                       {"--matmul-path", "cublas"},
                                       {"--cudnn-plans", "0"},
                                       {"--warmup-ms", "-1"},
                                       {"--min-time-ms", "-1"},
                                       {"--passes", "bwd"},
                                       {"--passes", ""},
                                       {"--passes", "fwd,,bwd_data"},
                                       {"--min-time-ms", "60001"},
                                       {"--tune-window-ms", "-5"},
                                       {"--tune-window-ms", "10001"},
                                       {"--workspace-mb", "1e300"},
                                       {"--workspace-mb", "nan"},
                                       {"--warmup-ms", "inf"},
                                       {"--straggler-threshold", "nan"},
                                       {"--iters", "0"},
                                       {"--matmul-candidates", "-3"}})
    EXPECT_THROW(plan_for(bad), harness::UsageError) << bad[0] << " " << bad[1];
}

TEST(ComputePlan, RunCommandWithoutComputeOptionsGetsDefaults) {
  const char* argv[] = {"gpuscale", "--quick"};
  const auto inv = parse_command_line(2, argv);
  const auto plan = parse_compute_plan(inv.options, make_profile(true, false).compute);
  EXPECT_EQ(plan.items.size(), 4u);  // --quick: the default matmul and conv in tf32 and bf16
  EXPECT_EQ(plan.items.front().precision, workloads::Precision::tf32);
  EXPECT_EQ(plan.bench.warmup, 2);
  // The cpu backend's defaults are small; explicit shapes stay as given.
  const auto cpu = parse_compute_plan(inv.options, make_profile(true, true).compute);
  EXPECT_EQ(cpu.items.front().shape.set, "cpu");
  EXPECT_EQ(cpu.items.front().shape.shape, workloads::LayerShape{(workloads::LinearShape{256, 256, 256})});
  EXPECT_EQ(plan_for({"--shapes", "mlp"}).items.front().shape.set, "mlp");
}

}  // namespace
}  // namespace gpuscale::launch
