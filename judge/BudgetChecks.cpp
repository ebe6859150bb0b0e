#include "judge/BudgetChecks.hpp"

#include <algorithm>

#include "judge/Rule.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::judge {

using namespace results;
namespace {

// "allreduce took 8.4 s in collectives (its share ended 6.0 s into the run; the phase ended at 9.1 s)"
std::string what_took_the_time(const PhaseBudget& p) {
  std::string text = p.longest.empty() ? "the phase" : p.longest + " took " + fixed(p.longest_s, 1) + " s";
  return text + " in " + p.phase + " (its share ended " + fixed(p.deadline_s, 1) + " s into the run; the phase ended at " +
         fixed(p.ended_s, 1) + " s)";
}

std::string dropped_text(const std::vector<const PhaseBudget*>& over) {
  std::vector<std::string> lines;
  for (const auto* p : over)
    for (const auto& d : p->dropped) lines.push_back(p->phase + ": " + d);
  std::string text;
  for (std::size_t i = 0; i < lines.size() && i < kDroppedNamed; ++i) text += (i ? "; " : "") + lines[i];
  if (lines.size() > kDroppedNamed) text += "; and " + std::to_string(lines.size() - kDroppedNamed) + " more";
  return text;
}

}  // namespace

std::optional<Check> budget_check(const BudgetRecord& budget, const SuspectList* suspects) {
  std::vector<const PhaseBudget*> over;
  for (const auto& p : budget.phases)
    if (!p.dropped.empty()) over.push_back(&p);
  if (over.empty()) return std::nullopt;
  // The phase that dropped most names what took the time.
  const PhaseBudget* worst = over.front();
  for (const auto* p : over)
    if (p->dropped.size() > worst->dropped.size()) worst = p;
  const Suspect* node = suspects && !suspects->ranked.empty() ? &suspects->ranked.front() : nullptr;
  double ended_s = 0;
  for (const auto& p : budget.phases) ended_s = std::max(ended_s, p.ended_s);
  // A run that ended within its budget was trimmed to fit it, as planned: a healthy GPU whose compute
  // outlasts its share is no finding. Past the budget something was slow: a warning, an error once
  // the localisation names the node.
  const bool within = ended_s <= budget.budget_s;
  std::string message = (within ? "the run kept its budget of " + fixed(budget.budget_s, 0) + " s (it ended at " +
                                      fixed(ended_s, 1) + " s) by dropping work: "
                                : "the run's budget of " + fixed(budget.budget_s, 0) + " s ran out: ") +
                        what_took_the_time(*worst);
  if (node) {
    message += "; the slow-node localisation named node " + std::to_string(node->node) +
               (node->host.empty() ? "" : " (" + node->host + ")") + " as the slow one";
  } else {
    message += "; no node was named as slow (the localisation " +
               std::string(suspects ? "named none" : "did not run") + ")";
  }
  message += ". Dropped: " + dropped_text(over) +
             (node ? ". Drain and test that node" : ". The job is larger than the budget: run the phases as their own commands (gpuscale collectives, "
                    "compute, train), which keep no budget");
  const Severity severity = node ? Severity::error : within ? Severity::info : Severity::warning;
  Check check{check_ids::kBudgetExceeded, severity, {}, message};
  if (node) check.nodes = {node->node};
  return check;
}

// When the run has finished: a partial file's budget is still being spent.
extern const RuleFamily kBudgetChecks{
    "budget", "", "budget, collectives.isolation, complete",
    "budget-exceeded error (a node named), warning or info", GpuBlock::none,
    [](const RunReport& report, const RuleContext&) {
      Judged judged;
      if (!report.complete || !report.budget) return judged;
      const auto& c = report.collectives;
      if (auto check = budget_check(*report.budget, c && c->isolation ? &report.suspects : nullptr))
        judged.checks.push_back(std::move(*check));
      return judged;
    },
    nullptr};

}  // namespace gpuscale::judge
