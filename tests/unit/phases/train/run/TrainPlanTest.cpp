#include "phases/train/run/TrainPlan.hpp"

#include <gtest/gtest.h>

#include "harness/Error.hpp"
#include "launch/Cli.hpp"

namespace gpuscale::launch {
namespace {

TrainPlan train_plan_for(std::vector<const char*> args, bool cpu = false, bool quick = false, bool whole_job = false) {
  args.insert(args.begin(), {"gpuscale", "train"});
  const auto inv = parse_command_line(static_cast<int>(args.size()), args.data());
  return parse_train_plan(inv.options, make_profile(quick, cpu).train, whole_job);
}

// --quick reaches the plan through the profile alone: the preflight's gradient checks are the essential
// ones, the default run's every one (the phase reads the plan, not the command line).
TEST(TrainPlan, QuickChecksTheEssentialGradientsOnly) {
  EXPECT_TRUE(train_plan_for({}, false, true).essential_checks_only);
  EXPECT_TRUE(train_plan_for({}, true, true).essential_checks_only);
  EXPECT_FALSE(train_plan_for({}).essential_checks_only);
  EXPECT_FALSE(train_plan_for({}, true).essential_checks_only);
}

TEST(TrainPlan, DefaultsFollowTheDesign) {
  const auto p = train_plan_for({});
  EXPECT_EQ(p.models, (std::vector<std::string>{"mlp", "cnn"}));
  EXPECT_EQ(p.precisions.size(), 2u);
  EXPECT_TRUE(p.single && p.dp && p.ddp);
  EXPECT_TRUE(p.weak);
  EXPECT_FALSE(p.strong);
  EXPECT_DOUBLE_EQ(p.ddp_options.bucket_mb, 25);
  EXPECT_DOUBLE_EQ(p.ddp_options.first_bucket_mb, 1);
  EXPECT_TRUE(p.ddp_options.overlap);
  EXPECT_TRUE(p.ddp_options.overlap_optimizer);
  EXPECT_EQ(p.ddp_options.comm_priority, harness::StreamPriority::normal);
  EXPECT_EQ(p.timing.iterations, 20);
  EXPECT_DOUBLE_EQ(p.timing.warmup_s, 0);
  EXPECT_DOUBLE_EQ(train_plan_for({"--warmup-ms", "1500"}).timing.warmup_s, 1.5);
  EXPECT_FALSE(p.batch.has_value());  // the preset's
  EXPECT_FALSE(p.depth.has_value());
  EXPECT_FALSE(p.dp_devices.has_value());  // every visible GPU
  EXPECT_EQ(train_plan_for({}, true).width.value(), 16);  // scaled down on the cpu backend
  EXPECT_EQ(train_plan_for({"--batch", "7", "--depth", "2"}, true).batch.value(), 7);
}

TEST(TrainPlan, OptionsParse) {
  const auto p =
      train_plan_for({"--model", "resnet50", "--strategy", "ddp", "--scaling", "both", "--grad-dtype", "bf16",
                      "--accum", "4", "--no-overlap", "--gpus", "1,2", "--comm-priority", "both", "--h2d"});
  EXPECT_EQ(p.models, std::vector<std::string>{"resnet50"});
  EXPECT_FALSE(p.single || p.dp);
  EXPECT_TRUE(p.weak && p.strong);
  EXPECT_EQ(p.ddp_options.grad_type, harness::DataType::bfloat16);
  EXPECT_EQ(p.ddp_options.accum, 4);
  EXPECT_FALSE(p.ddp_options.overlap);
  EXPECT_TRUE(p.ddp_options.h2d);
  EXPECT_EQ(p.ddp_sizes, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.comm_priorities.size(), 2u);
}

// The first priority listed is every run's; `high` alone once changed nothing (only the extra runs
// of `both` read the list).
TEST(TrainPlan, CommPriorityAppliesToEveryRun) {
  EXPECT_EQ(train_plan_for({"--comm-priority", "high"}).ddp_options.comm_priority, harness::StreamPriority::high);
  const auto both = train_plan_for({"--comm-priority", "both"});
  EXPECT_EQ(both.ddp_options.comm_priority, both.comm_priorities.front());
  EXPECT_FALSE(train_plan_for({"--no-optimizer-overlap"}).ddp_options.overlap_optimizer);
}

// DDP's communicator: plain buckets and CTAs chosen by timing by default; --quick and the whole-job
// run keep NCCL's choice unless asked.
TEST(TrainPlan, CommBuffersAndCtas) {
  const auto d = train_plan_for({});
  EXPECT_FALSE(d.ddp_options.comm_window);
  EXPECT_TRUE(d.comm_ctas_auto);
  EXPECT_FALSE(train_plan_for({}, false, true).comm_ctas_auto);
  EXPECT_FALSE(train_plan_for({}, false, false, true).comm_ctas_auto);  // the whole-job run
  EXPECT_TRUE(train_plan_for({"--comm-ctas", "auto"}, false, false, true).comm_ctas_auto);
  const auto p = train_plan_for({"--comm-buffers", "window", "--comm-ctas", "32"});
  EXPECT_TRUE(p.ddp_options.comm_window);
  EXPECT_FALSE(p.comm_ctas_auto);
  EXPECT_EQ(p.comm_ctas, 32);
  EXPECT_TRUE(train_plan_for({"--comm-ctas", "auto"}, false, true).comm_ctas_auto);
  EXPECT_EQ(train_plan_for({"--comm-ctas", "0"}).comm_ctas, 0);
  EXPECT_EQ(d.ddp_options.sm_margin, 0);
  EXPECT_EQ(train_plan_for({"--comm-sm-margin", "32"}).ddp_options.sm_margin, 32);
}

// `gpuscale train` times cuDNN's graph plans beside cudnnFind's winner; the whole-job run, whose budget
// they overran (91 s of 60 on 2 H200s), keeps cudnnFind alone unless asked.
TEST(TrainPlan, WholeJobSearchesConvolutionsWithFindAlone) {
  EXPECT_EQ(train_plan_for({}).tuning.conv_search, workloads::AlgoSearch::exhaustive);
  EXPECT_EQ(train_plan_for({}, false, true).tuning.conv_search, workloads::AlgoSearch::exhaustive);
  EXPECT_EQ(train_plan_for({}, false, false, true).tuning.conv_search, workloads::AlgoSearch::find);
  EXPECT_EQ(train_plan_for({"--cudnn-algo", "exhaustive"}, false, false, true).tuning.conv_search,
            workloads::AlgoSearch::exhaustive);
  EXPECT_EQ(train_plan_for({"--cudnn-algo", "graph"}).tuning.conv_search, workloads::AlgoSearch::graph);
}

TEST(TrainPlan, BadInputIsAUsageError) {
  EXPECT_THROW(train_plan_for({"--comm-buffers", "pinned"}), harness::UsageError);
  for (const char* ctas : {"65", "-1", "many", "8x", ""})
    EXPECT_THROW(train_plan_for({"--comm-ctas", ctas}), harness::UsageError) << ctas;
  EXPECT_THROW(train_plan_for({"--strategy", "fsdp"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--grad-dtype", "int8"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--accum", "0"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--bucket-mb", "0"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--gpus", "1,x"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--scaling", "diagonal"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--comm-priority", "urgent"}), harness::UsageError);
  EXPECT_THROW(train_plan_for({"--warmup-ms", "-1"}), harness::UsageError);
  for (const char* margin : {"-1", "1025", "some"})
    EXPECT_THROW(train_plan_for({"--comm-sm-margin", margin}), harness::UsageError) << margin;
}

// Zero is no batch, depth, width or device count: it is refused, never read as "the preset's".
// Negative, NaN, infinite and huge values are refused alike, before any work.
TEST(TrainPlan, ZeroNegativeNanAndHugeAreRefused) {
  for (const auto& bad : std::vector<std::vector<const char*>>{
           {"--batch", "0"}, {"--depth", "0"}, {"--width", "0"}, {"--dp-devices", "0"}, {"--batch", "-4"},
           {"--depth", "1001"}, {"--iters", "0"}, {"--check-batch", "0"}, {"--gpus", "2x"}, {"--gpus", "0"},
           {"--lr", "nan"}, {"--lr", "-1"}, {"--first-bucket-mb", "inf"}, {"--bucket-mb", "1e300"},
           {"--warmup-ms", "nan"}, {"--straggler-threshold", "inf"}, {"--straggler-threshold", "0"}}) {
    EXPECT_THROW(train_plan_for(bad), harness::UsageError) << bad[0] << " " << bad[1];
    EXPECT_THROW(train_plan_for(bad, true), harness::UsageError) << bad[0] << " " << bad[1] << " (cpu)";
  }
}

// A batch whose tensors pass 2^31 elements is bad input at parse time, not an error mid-run.
TEST(TrainPlan, BatchTooLargeForTheModelIsRefusedAtParse) {
  try {
    train_plan_for({"--batch", "2000000000"});
    FAIL() << "accepted";
  } catch (const harness::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("2^31"), std::string::npos) << e.what();
  }
  EXPECT_EQ(train_plan_for({"--batch", "64", "--model", "mlp"}).batch.value(), 64);
}

TEST(TrainPlan, DefaultDdpSizes) {
  EXPECT_EQ(default_ddp_sizes(1), std::vector<int>{1});
  EXPECT_EQ(default_ddp_sizes(6), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(default_ddp_sizes(8), (std::vector<int>{1, 2, 4, 8}));
}

}  // namespace
}  // namespace gpuscale::launch
