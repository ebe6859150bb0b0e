#include "launch/RunBudget.hpp"

#include <utility>

namespace gpuscale::launch {
namespace {

// Shares in proportion to what each phase takes in a healthy run of either profile: the checks
// (env) and the short burn little, the sweeps and training most.
double weight(const std::string& phase) {
  if (phase == "env") return 1;
  if (phase == "links") return 1;
  if (phase == "compute") return 2;
  if (phase == "burn") return 1;
  if (phase == "collectives") return 3;
  if (phase == "train") return 2;
  return 1;
}

}  // namespace

results::BudgetRecord plan_budget(double budget_s, const std::vector<std::string>& phases) {
  results::BudgetRecord budget;
  budget.budget_s = budget_s;
  double total = 0;
  for (const auto& p : phases) total += weight(p);
  double sum = 0;
  for (const auto& p : phases) {
    sum += weight(p);
    budget.phases.push_back({p, budget_s * sum / total, 0, "", 0, {}});
  }
  return budget;
}

const results::PhaseBudget* find_phase(const results::BudgetRecord& budget, const std::string& phase) {
  for (const auto& p : budget.phases)
    if (p.phase == phase) return &p;
  return nullptr;
}

results::PhaseBudget* find_phase(results::BudgetRecord& budget, const std::string& phase) {
  return const_cast<results::PhaseBudget*>(find_phase(std::as_const(budget), phase));
}

}  // namespace gpuscale::launch
