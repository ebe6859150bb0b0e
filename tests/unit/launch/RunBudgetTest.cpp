// The budget's deadlines: cumulative shares of the stated budget, the last phase's at the budget.
#include "launch/RunBudget.hpp"

#include <gtest/gtest.h>

namespace gpuscale::launch {
namespace {

TEST(RunBudget, DeadlinesAreCumulativeSharesEndingAtTheBudget) {
  const auto b = plan_budget(15, {"env", "links", "compute", "burn", "collectives", "train"});
  ASSERT_EQ(b.phases.size(), 6u);
  EXPECT_EQ(b.budget_s, 15);
  for (std::size_t i = 1; i < b.phases.size(); ++i) EXPECT_GT(b.phases[i].deadline_s, b.phases[i - 1].deadline_s);
  EXPECT_DOUBLE_EQ(b.phases.back().deadline_s, 15);
  EXPECT_GT(b.phases[0].deadline_s, 0);
  ASSERT_NE(find_phase(b, "collectives"), nullptr);
  EXPECT_EQ(find_phase(b, "collectives")->phase, "collectives");
  EXPECT_EQ(find_phase(b, "nope"), nullptr);
}

// The Job's budget object: what the phases report lands in its record, for the phase named; a phase
// it keeps no share for has no end and records nothing.
TEST(RunBudget, KeepsWhatThePhasesReport) {
  RunBudget budget(10, {"env", "burn"});
  const double env_deadline = find_phase(budget.record(), "env")->deadline_s;
  EXPECT_DOUBLE_EQ(budget.left_s("env", 1), env_deadline - 1);
  EXPECT_GT(budget.left_s("links", 1), 1e6) << "not budgeted: no end";
  budget.started("burn", 2);
  budget.item("burn", "bf16 matmul", 0.5);
  budget.item("burn", "short one", 0.1);
  budget.dropped("burn", "fp16 matmul");
  budget.ended("burn", 9);
  budget.item("links", "nothing", 99);
  const auto* burn = find_phase(budget.record(), "burn");
  ASSERT_NE(burn, nullptr);
  EXPECT_DOUBLE_EQ(burn->started_s, 2);
  EXPECT_DOUBLE_EQ(burn->ended_s, 9);
  EXPECT_EQ(burn->longest, "bf16 matmul");
  EXPECT_DOUBLE_EQ(burn->longest_s, 0.5);
  EXPECT_EQ(burn->dropped, (std::vector<std::string>{"fp16 matmul"}));
  EXPECT_EQ(budget.record().phases.size(), 2u);
  EXPECT_TRUE(find_phase(budget.record(), "env")->dropped.empty());
}

}  // namespace
}  // namespace gpuscale::launch
