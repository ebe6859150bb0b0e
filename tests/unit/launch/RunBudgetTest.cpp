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

}  // namespace
}  // namespace gpuscale::launch
