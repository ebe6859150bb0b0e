// The command table's phase lists and the phase table: what each command runs, in order, and the
// GPU policy and plan of each phase.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/Error.hpp"
#include "launch/Commands.hpp"
#include "launch/Phases.hpp"
#include "launch/RunPlan.hpp"

namespace gpuscale::launch {
namespace {

std::vector<std::string> names(std::string_view command) {
  std::vector<std::string> out;
  for (const auto& p : phases_for(command)) out.emplace_back(p.name);
  return out;
}

using Names = std::vector<std::string>;

TEST(Phases, EachCommandRunsItsPhasesInOrder) {
  EXPECT_EQ(names("run"), (Names{"env", "links", "compute", "burn", "collectives", "train"}));
  EXPECT_EQ(names("env"), (Names{"env"}));
  EXPECT_EQ(names("compute"), (Names{"env", "compute"}));
  EXPECT_EQ(names("collectives"), (Names{"env", "collectives"}));
  EXPECT_EQ(names("train"), (Names{"env", "train"}));
  EXPECT_EQ(names("burn"), (Names{"env", "burn"}));
  EXPECT_EQ(names("links"), (Names{"env", "links"}));
  for (const char* offline : {"report", "compare", "baseline"}) {
    EXPECT_TRUE(names(offline).empty()) << offline;
    EXPECT_FALSE(command_named(offline).needs_world()) << offline;
    EXPECT_NE(command_named(offline).run_offline, nullptr) << offline;
  }
}

TEST(Phases, AnUnknownCommandIsRefused) {
  EXPECT_THROW(phases_for("frobnicate"), harness::UsageError);
  EXPECT_THROW(phases_for(""), harness::UsageError);
  EXPECT_THROW(command_named("help"), harness::UsageError);
}

TEST(Phases, EveryListedPhaseIsInTheTableAndEveryPhaseRunsSomewhere) {
  for (const auto& c : commands()) {
    EXPECT_EQ(c.needs_world(), c.run_offline == nullptr) << c.name;
    for (const auto name : c.phases) EXPECT_NE(find_phase_spec(name), nullptr) << c.name << ": " << name;
  }
  // The whole-job run runs every phase, in the table's order.
  Names all;
  for (const auto& p : phase_table()) all.emplace_back(p.name);
  EXPECT_EQ(names(default_command().name), all);
  EXPECT_EQ(find_phase_spec("nope"), nullptr);
}

TEST(Phases, GpuPolicy) {
  for (const auto& p : phase_table()) {
    EXPECT_NE(p.run, nullptr) << p.name;
    EXPECT_GT(p.budget_weight, 0) << p.name;
    // Only env runs when an env check blocks GPU work; only burn runs beside another process.
    EXPECT_EQ(p.needs_gpu_work, p.name != "env") << p.name;
    EXPECT_EQ(p.runs_on_shared_gpu, p.name == "burn") << p.name;
  }
}

TEST(Phases, OnlyTheWholeJobRunKeepsABudget) {
  for (const auto& c : commands()) EXPECT_EQ(c.whole_job, c.name == "run") << c.name;
  EXPECT_EQ(&default_command(), &command_named("run"));
}

// A command's plan holds exactly the parts of the phases it runs.
TEST(Phases, ThePlanHoldsThePhasesOfItsCommand) {
  for (const auto& c : commands()) {
    if (!c.needs_world()) continue;
    Invocation invocation;
    invocation.command = std::string(c.name);
    const auto plan = resolve_run_plan(invocation, true);
    const auto runs = [&](const char* phase) {
      for (const auto n : c.phases)
        if (n == phase) return true;
      return false;
    };
    EXPECT_EQ(plan.links.has_value(), runs("links")) << c.name;
    EXPECT_EQ(plan.compute.has_value(), runs("compute")) << c.name;
    EXPECT_EQ(plan.burn.has_value(), runs("burn")) << c.name;
    EXPECT_EQ(plan.collectives.has_value(), runs("collectives")) << c.name;
    EXPECT_EQ(plan.train.has_value(), runs("train")) << c.name;
  }
}

}  // namespace
}  // namespace gpuscale::launch
