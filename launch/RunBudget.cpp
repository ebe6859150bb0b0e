#include "launch/RunBudget.hpp"

#include <utility>

#include "launch/PhaseTable.hpp"

namespace gpuscale::launch {
namespace {

// Shares in proportion to the phases' weights (PhaseSpec::budget_weight).
double weight(const std::string& phase) {
  const auto* spec = find_phase_spec(phase);
  return spec ? spec->budget_weight : 1;
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
