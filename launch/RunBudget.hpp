#pragma once
// The whole-job run's time budget as a deadline per phase. Each phase gets a share of the profile's
// budget; its deadline is the sum of the shares up to and including its own, counted from the run's
// start, so time an early phase leaves unused passes to the later ones. A phase past its deadline
// finishes the item it is on (a size, a shape, a training configuration) and drops the rest with a
// note; the run goes on. Only the whole-job run (`gpuscale`, `gpuscale --quick`) keeps a budget: the
// single-phase commands run their plan in full. Pure.
#include <string>
#include <vector>

#include "results/schema/BudgetRecord.hpp"

namespace gpuscale::launch {

// The budget of one whole-job run, owned by the Job that drives it: each phase's deadline, and what
// rank 0 learns as the phases run (starts and ends, the longest item, the items dropped). The report
// carries a copy of its record (RunReport::budget), taken at each write.
class RunBudget {
 public:
  RunBudget(double budget_s, const std::vector<std::string>& phases);

  // Seconds left of `phase`'s share at `now_s` (the run's clock); a phase it keeps no share for has
  // no end (harness::Deadline::never's).
  double left_s(const std::string& phase, double now_s) const;
  void started(const std::string& phase, double now_s);
  void ended(const std::string& phase, double now_s);
  // An item of `phase` took `seconds`; the longest is named when the phase's share runs out.
  void item(const std::string& phase, const std::string& what, double seconds);
  void dropped(const std::string& phase, const std::string& what);

  const results::BudgetRecord& record() const { return record_; }

 private:
  results::BudgetRecord record_;
};

// The phases of `phases` with their deadlines (seconds from the run's start) out of `budget_s`.
results::BudgetRecord plan_budget(double budget_s, const std::vector<std::string>& phases);

// The record's phase named `phase`, or nullptr (a phase that keeps no budget).
results::PhaseBudget* find_phase(results::BudgetRecord& budget, const std::string& phase);
const results::PhaseBudget* find_phase(const results::BudgetRecord& budget, const std::string& phase);

}  // namespace gpuscale::launch
