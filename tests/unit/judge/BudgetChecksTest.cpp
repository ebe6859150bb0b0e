// budget-exceeded on synthetic budget records: quiet while nothing was dropped; info where the run
// ended within its budget by dropping work; past it, a warning naming the longest op where no node was
// named and an error naming the node the localisation named.
#include "judge/BudgetChecks.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "judge/Judge.hpp"
#include "results/base/CheckIds.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::results {
namespace {

using namespace gpuscale::judge;

BudgetRecord spent_in_collectives() {
  BudgetRecord b;
  b.budget_s = 15;
  b.phases = {{"compute", 5, 4, "linear 64x64x64 bf16", 0.5, {}},
              {"collectives", 10, 16.2, "allreduce", 8.4,
               {"allreduce 2K..64K (4 of 7 sizes)", "allgather,broadcast (every size)", "the scaling table",
                "the pairwise send/recv matrix"}}};
  return b;
}

TEST(BudgetChecks, QuietWhenNothingWasDropped) {
  BudgetRecord b = spent_in_collectives();
  b.phases[1].dropped.clear();
  EXPECT_FALSE(budget_check(b, nullptr));
}

TEST(BudgetChecks, ARunTrimmedToEndWithinItsBudgetIsInformation) {
  BudgetRecord b = spent_in_collectives();
  b.phases[1].ended_s = 14.2;
  const auto check = budget_check(b, nullptr);
  ASSERT_TRUE(check);
  EXPECT_EQ(check->severity, Severity::info);
  EXPECT_NE(check->message.find("kept its budget of 15 s (it ended at 14.2 s) by dropping work"), std::string::npos)
      << check->message;
}

TEST(BudgetChecks, NamesTheOpItsSecondsAndWhatWasDropped) {
  const auto check = budget_check(spent_in_collectives(), nullptr);
  ASSERT_TRUE(check);
  EXPECT_EQ(check->id, check_ids::kBudgetExceeded);
  EXPECT_EQ(check->severity, Severity::warning);
  EXPECT_NE(check->message.find("budget of 15 s ran out: allreduce took 8.4 s in collectives"), std::string::npos)
      << check->message;
  EXPECT_NE(check->message.find("allreduce 2K..64K (4 of 7 sizes)"), std::string::npos) << check->message;
  EXPECT_NE(check->message.find("and 1 more"), std::string::npos) << check->message;  // kDroppedNamed = 3
  EXPECT_NE(check->message.find("did not run"), std::string::npos) << check->message;
}

TEST(BudgetChecks, TheNodeTheLocalisationNamedFailsTheRun) {
  SuspectList suspects;
  suspects.ranked.push_back({5, "node5.example", 1.0, 1, 1, true, false, "bisection"});
  const auto check = budget_check(spent_in_collectives(), &suspects);
  ASSERT_TRUE(check);
  EXPECT_EQ(check->severity, Severity::error);
  EXPECT_EQ(check->nodes, std::vector<int>{5});
  EXPECT_NE(check->message.find("named node 5 (node5.example)"), std::string::npos) << check->message;
}

// Through the judge: the node named is the one the isolation's measurements rank first (node 1's
// node-local allreduce moved a tenth of the others'), not the suspect the file kept.
TEST(BudgetChecks, TheJudgeNamesTheSuspectRankedFromTheMeasurements) {
  RunReport run;
  run.budget = spent_in_collectives();
  auto& iso = run.collectives.emplace().isolation.emplace();
  iso.threshold = 0.5;
  iso.node_hosts = {"n0", "n1", "n2", "n3", "n4"};
  iso.node_local = {{0, 0.52}, {1, 0.04}, {2, 0.55}, {3, 0.6}, {4, 0.5}};
  Suspect stale;
  stale.node = 3, stale.host = "n3", stale.evidence = "as an older run said";
  run.suspects.ranked = {stale};
  judge::judge(run, {});
  const Check* budget = nullptr;
  for (const auto& c : run.checks)
    if (c.id == check_ids::kBudgetExceeded) budget = &c;
  ASSERT_NE(budget, nullptr);
  EXPECT_EQ(budget->nodes, std::vector<int>{1});
  EXPECT_NE(budget->message.find("named node 1 (n1)"), std::string::npos) << budget->message;
}

TEST(BudgetChecks, RecordRoundTripsThroughJson) {
  const BudgetRecord b = spent_in_collectives();
  const BudgetRecord back = nlohmann::json(b).get<BudgetRecord>();
  ASSERT_EQ(back.phases.size(), 2u);
  EXPECT_EQ(back.budget_s, 15);
  EXPECT_EQ(back.phases[1].longest, "allreduce");
  EXPECT_EQ(back.phases[1].longest_s, 8.4);
  EXPECT_EQ(back.phases[1].dropped, b.phases[1].dropped);
}

}  // namespace
}  // namespace gpuscale::results
