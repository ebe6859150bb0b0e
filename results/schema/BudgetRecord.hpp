#pragma once
// How the whole-job run kept its time budget: each phase's deadline (its share of the budget, counted
// from the run's start), when it ended, the item that took longest, and what it dropped when its share
// ran out. Plain data, written on rank 0; the check budget-exceeded (BudgetChecks.hpp) reads it.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

struct PhaseBudget {
  std::string phase;
  double deadline_s = 0;  // from the run's start: the phase finishes the item it is on past this, then stops
  double ended_s = 0;     // from the run's start; 0 while the phase runs
  std::string longest;    // the item (op, shape, model) that took longest, as the phase names it
  double longest_s = 0;
  std::vector<std::string> dropped;  // what the phase left out once its deadline had passed, one line each
  double started_s = 0;  // from the run's start; 0 before it starts (and in files written before it was kept)
};

struct BudgetRecord {
  double budget_s = 0;  // the profile's stated budget
  std::vector<PhaseBudget> phases;
};

constexpr auto json_fields(const PhaseBudget*) {
  using T = PhaseBudget;
  return fields(field("phase", &T::phase), field("deadline_s", &T::deadline_s),
                field("started_s", &T::started_s).optional(), field("ended_s", &T::ended_s),
                field("longest", &T::longest).optional(), field("longest_s", &T::longest_s).optional(),
                field("dropped", &T::dropped).optional());
}

constexpr auto json_fields(const BudgetRecord*) {
  return fields(field("budget_s", &BudgetRecord::budget_s), field("phases", &BudgetRecord::phases));
}

void to_json(nlohmann::json& j, const PhaseBudget& p);
void from_json(const nlohmann::json& j, PhaseBudget& p);
void to_json(nlohmann::json& j, const BudgetRecord& b);
void from_json(const nlohmann::json& j, BudgetRecord& b);

}  // namespace gpuscale::results
