#include "launch/base/RunPlan.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "collectives/Sweep.hpp"
#include "launch/PlanFit.hpp"
#include "launch/RunPlanning.hpp"
#include "phases/collectives/run/CollectivesPhase.hpp"
#include "phases/compute/run/ComputePlan.hpp"
#include "phases/train/run/TrainPlan.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::launch {
namespace {

Invocation parse_run(std::vector<const char*> args) {
  args.insert(args.begin(), "gpuscale");
  return parse_command_line(static_cast<int>(args.size()), args.data());
}

// What the collectives phase and the projection after it read is planned: nothing reads --nccl-algo or
// --project-ranks from the command line once the plan is resolved.
TEST(RunPlan, CollectivesPlanHoldsTheOptionsReadAroundTheSweeps) {
  const auto plain = resolve_run_plan(parse_run({"collectives"}), true);
  EXPECT_FALSE(plain.get<CollectivesPlan>("collectives").nccl_algorithm);
  EXPECT_EQ(plain.project_ranks, (std::vector<int>{512, 1024, 4096}));
  const auto asked = resolve_run_plan(parse_run({"collectives", "--nccl-algo", "--project-ranks", "64,16"}), true);
  EXPECT_TRUE(asked.get<CollectivesPlan>("collectives").nccl_algorithm);
  EXPECT_EQ(asked.project_ranks, (std::vector<int>{16, 64}));
  EXPECT_TRUE(resolve_run_plan(parse_run({"--project-ranks", "none"}), true).project_ranks.empty());
  // A command without the option (train feeds the projection too) projects to the defaults.
  EXPECT_EQ(resolve_run_plan(parse_run({"train"}), true).project_ranks, (std::vector<int>{512, 1024, 4096}));
}

// The start-up line is what runs: the resolved plans after the profile and the command line.
TEST(RunPlan, StartupLineStatesWhatRuns) {
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"--quick"}), true)),
            "quick-cpu (budget 15 s): links 1M pinned, 1M pageable, 4M device memory, 1+2 copies; compute 2 shapes in "
            "tf32,bf16, 2+5 calls; burn bf16 matmul 64 for 0.5 s; collectives 7 ops, 7 sizes 8..32K, "
            "2+5 iterations; train mlp in bf16, 1+3 steps");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({}), true)),
            "default-cpu (budget 120 s): links 1M,16M pinned, 4M pageable, 16M device memory, 1+3 copies; compute 2 "
            "shapes in fp32,tf32,fp16,bf16, 5+20 calls; burn bf16 matmul 128 for 2 s; collectives 7 ops, "
            "20 sizes 8..4M, 5+20 iterations; train mlp,cnn in fp32,bf16, 1+3 steps");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"collectives", "-b", "8", "-e", "1M"}), false)),
            "default (budget 60 s): collectives 7 ops, 18 sizes 8..1M, 5+20 iterations");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"collectives", "--quick", "-n", "7", "--ops", "allreduce"}), true)),
            "quick-cpu (budget 15 s): collectives 1 op, 7 sizes 8..32K, 2+7 iterations");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"train", "--quick", "--iters", "9", "--model", "cnn"}), false)),
            "quick (budget 15 s): train cnn in bf16, 2+9 steps");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"burn", "--burn-s", "30", "--precision", "fp16"}), false)),
            "default (budget 60 s): burn fp16 matmul 8192 for 30 s");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"burn"}), false)),
            "default (budget 60 s): burn bf16 matmul 8192 for 60 s");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"links", "--quick"}), false)),
            "quick (budget 15 s): links 64M pinned, 16M pageable, 1G device memory, 1+3 copies");
  EXPECT_EQ(describe(resolve_run_plan(parse_run({"env"}), false)), "default (budget 60 s)");
}

// Each phase's plan starts from the profile: no parser keeps a default of its own.
TEST(RunPlan, EveryProfileFeedsThePlans) {
  for (const bool quick : {false, true})
    for (const bool cpu : {false, true}) {
      const auto plan =
          resolve_run_plan(parse_run(quick ? std::vector<const char*>{"--quick"} : std::vector<const char*>{}), cpu);
      const auto& p = plan.profile;
      SCOPED_TRACE(p.name);
      EXPECT_EQ(p.name, make_profile(quick, cpu).name);
      ASSERT_TRUE(plan.has("collectives") && plan.has("compute") && plan.has("train"));
      const auto& c = plan.get<CollectivesPlan>("collectives").sweep;
      const auto& compute = plan.get<ComputePlan>("compute");
      const auto& train = plan.get<TrainPhasePlan>("train").train;
      EXPECT_EQ(c.max_bytes, p.collectives.max_bytes);
      EXPECT_EQ(c.step_factor, p.collectives.step_factor);
      EXPECT_EQ(c.warmup, p.collectives.warmup);
      EXPECT_EQ(c.iterations, p.collectives.iterations);
      EXPECT_EQ(c.scaling_sizes, p.collectives.scaling_sizes);
      EXPECT_EQ(c.pair_large_bytes, p.collectives.pair_large_bytes);
      EXPECT_EQ(compute.bench.warmup, p.compute.warmup);
      EXPECT_EQ(compute.bench.iterations, p.compute.iterations);
      EXPECT_EQ(compute.items.front().shape.set, p.compute.shape_sets);
      EXPECT_EQ(train.timing.warmup, p.train.warmup);
      EXPECT_EQ(train.timing.iterations, p.train.iterations);
      EXPECT_EQ(train.depth, p.train.depth);
      EXPECT_EQ(train.width, p.train.width);
      EXPECT_EQ(train.batch.has_value(), p.train.batch.has_value());
    }
}

// The help text prints the profile table's values, so it cannot drift from what runs.
TEST(RunPlan, HelpPrintsTheProfileDefaults) {
  // cxxopts wraps the descriptions: compare with every run of blanks made one space.
  const auto help = [](const char* command) {
    std::string text;
    for (const char c : parse_run({command, "--help"}).help_text)
      if (!std::isspace(static_cast<unsigned char>(c))) text += c;
      else if (!text.empty() && text.back() != ' ') text += ' ';
    return text;
  };
  EXPECT_NE(help("collectives").find("largest size (default 1G; 64M with --quick; 4M on cpu; 64K with --quick on cpu)"),
            std::string::npos);
  EXPECT_NE(help("collectives").find("timed iterations per size (default 20; 5 with --quick)"), std::string::npos);
  EXPECT_NE(help("collectives").find("(default 8,1M,64M; none with --quick; 8,64K on cpu; none with --quick on cpu)"),
            std::string::npos);
  EXPECT_NE(help("compute").find("timed calls per pass (default 20; 5 with --quick)"), std::string::npos);
  EXPECT_NE(help("train").find("timed steps (default 20; 5 with --quick; 3 on cpu; 3 with --quick on cpu)"),
            std::string::npos);
  EXPECT_NE(help("run").find("a short preflight (budget 15 s) instead of the default run (60 s; 120 s on the CPU backend)"),
            std::string::npos);
}

std::string sizes_text(const collectives::SweepOptions& c) {
  const auto sizes = collectives::size_list(c);
  return size_text(sizes.front()) + " .. " + size_text(sizes.back()) + " (x" + std::to_string(c.step_factor) + ")";
}

// docs/REPORT.md's profile table: one row per profile, each cell from the plan that runs.
std::string report_row(const RunPlan& plan) {
  const auto& c = plan.get<CollectivesPlan>("collectives").sweep;
  const auto& m = plan.get<ComputePlan>("compute");
  const auto& t = plan.get<TrainPhasePlan>("train").train;
  std::string precisions, models, train_precisions;
  for (std::size_t i = 0; i < m.items.size() && m.items[i].shape.shape == m.items.front().shape.shape; ++i)
    precisions += (i ? "," : "") + std::string(workloads::to_string(m.items[i].precision));
  for (const auto& name : t.models) models += (models.empty() ? "" : ",") + name;
  for (const auto p : t.precisions) train_precisions += (train_precisions.empty() ? "" : ",") + std::string(workloads::to_string(p));
  const auto counts = [](int w, int n) { return std::to_string(w) + " + " + std::to_string(n); };
  return "| " + plan.profile.name + " | " + results::fixed(plan.profile.budget_s, 0) + " s | " + precisions + " | " +
         counts(m.bench.warmup, m.bench.iterations) + " | " + sizes_text(c) + " | " + counts(c.warmup, c.iterations) +
         " | " + size_list_text(c.scaling_sizes) + " | " + size_text(c.pair_large_bytes) + " | " + models + " | " +
         train_precisions + " | " + counts(t.timing.warmup, t.timing.iterations) + " |";
}

TEST(RunPlan, ReportDocsProfileTableIsWhatRuns) {
  std::ifstream in(std::string(GPUSCALE_SOURCE_DIR) + "/docs/REPORT.md");
  ASSERT_TRUE(in) << "docs/REPORT.md not found under " << GPUSCALE_SOURCE_DIR;
  std::stringstream text;
  text << in.rdbuf();
  for (const bool quick : {true, false})
    for (const bool cpu : {false, true}) {
      const auto row = report_row(
          resolve_run_plan(parse_run(quick ? std::vector<const char*>{"--quick"} : std::vector<const char*>{}), cpu));
      EXPECT_NE(text.str().find(row + "\n"), std::string::npos) << "docs/REPORT.md lacks the row\n" << row;
    }
}

}  // namespace
}  // namespace gpuscale::launch

namespace gpuscale::launch {
namespace {

std::vector<std::string> item_names(const results::RunPlanRecord& plan, const std::string& phase) {
  std::vector<std::string> out;
  for (const auto& i : plan.items)
    if (i.phase == phase) out.push_back(i.name);
  return out;
}

// What `gpuscale --quick` plans on 4 CPU ranks of one node: every phase's items with the GPUs they
// span, and the values its figures' labels take (what a threshold may name).
TEST(RunPlan, PlanRecordListsEveryPlannedItem) {
  const auto plan = plan_record(resolve_run_plan(parse_run({"--quick"}), true), "run", JobShape{4, 1, 4}, true);
  EXPECT_EQ(plan.profile, "quick-cpu");
  EXPECT_TRUE(plan.require_complete);
  EXPECT_EQ(plan.phases, (std::vector<std::string>{"env", "links", "compute", "burn", "collectives", "train"}));
  EXPECT_EQ(item_names(plan, "env"), (std::vector<std::string>{"probes and checks on 4 ranks", "smoke allreduce"}));
  EXPECT_EQ(item_names(plan, "compute"),
            (std::vector<std::string>{"tf32: 2 shapes x 3 passes", "bf16: 2 shapes x 3 passes"}));
  EXPECT_EQ(item_names(plan, "collectives"),
            (std::vector<std::string>{"allreduce", "allgather", "reducescatter", "broadcast", "reduce", "alltoall",
                                      "sendrecv", "pairwise send/recv matrix"}));
  EXPECT_EQ(
      item_names(plan, "train"),
      (std::vector<std::string>{"gradient checks mlp bf16", "single mlp bf16 x1 weak", "ddp mlp bf16 x1 weak",
                                "ddp mlp bf16 x2 weak", "ddp mlp bf16 x4 weak", "dp mlp bf16 on up to 4 devices"}));
  for (const auto& i : plan.items) {
    if (i.phase != "collectives") continue;
    EXPECT_EQ(i.gpus, 4) << i.name;
  }
  EXPECT_EQ(plan.labels.at("collectives").at("bytes").back(), "32768");
  EXPECT_EQ(plan.labels.at("compute").at("layer"), (std::vector<std::string>{"matmul", "conv"}));
  EXPECT_EQ(plan.labels.at("train").at("gpus"), (std::vector<std::string>{"1", "2", "4", "3"}));
  // One command's phases only, and the plan the JSON keeps reads back alike.
  const auto env = plan_record(resolve_run_plan(parse_run({"env"}), true), "env", JobShape{1, 1, 2}, false);
  EXPECT_EQ(env.phases, std::vector<std::string>{"env"});
  EXPECT_EQ(env.items.size(), 2u);
  nlohmann::json j = plan;
  EXPECT_EQ(nlohmann::json(j.get<results::RunPlanRecord>()), j);
}

}  // namespace
}  // namespace gpuscale::launch
