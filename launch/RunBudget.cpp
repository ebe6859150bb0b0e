#include "launch/RunBudget.hpp"

#include <utility>

#include "harness/Deadline.hpp"
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

RunBudget::RunBudget(double budget_s, const std::vector<std::string>& phases)
    : record_(plan_budget(budget_s, phases)) {}

double RunBudget::left_s(const std::string& phase, double now_s) const {
  const auto* p = find_phase(record_, phase);
  return p ? p->deadline_s - now_s : harness::Deadline::never().remaining_s();
}

void RunBudget::started(const std::string& phase, double now_s) {
  if (auto* p = find_phase(record_, phase)) p->started_s = now_s;
}

void RunBudget::ended(const std::string& phase, double now_s) {
  if (auto* p = find_phase(record_, phase)) p->ended_s = now_s;
}

void RunBudget::item(const std::string& phase, const std::string& what, double seconds) {
  auto* p = find_phase(record_, phase);
  if (p && seconds > p->longest_s) {
    p->longest = what;
    p->longest_s = seconds;
  }
}

void RunBudget::dropped(const std::string& phase, const std::string& what) {
  if (auto* p = find_phase(record_, phase)) p->dropped.push_back(what);
}

}  // namespace gpuscale::launch
