#include "results/models/ChecksRan.hpp"

#include <algorithm>
#include <string>

#include "results/models/FigureNames.hpp"
#include "results/schema/CheckTable.hpp"

namespace gpuscale::results {
namespace {

bool completed(const RunReport& r, std::string_view phase) {
  return std::find(r.phases_completed.begin(), r.phases_completed.end(), phase) != r.phases_completed.end();
}

// A verdict rule of the baseline is named by its check id, alone or followed by the figure it failed.
bool baseline_judged(const RunReport& r, std::string_view id) {
  return std::any_of(r.verdict.rules.begin(), r.verdict.rules.end(), [&](const RuleOutcome& rule) {
    const std::string_view name(rule.name);
    return name.substr(0, id.size()) == id && (name.size() == id.size() || name[id.size()] == ' ');
  });
}

bool section_ran(const RunReport& r, const CheckInfo& c) {
  switch (c.section) {
    case CheckSection::environment:
    case CheckSection::outliers: return completed(r, phase::env);
    case CheckSection::budget: return completed(r, phase::env) && r.budget.has_value();
    case CheckSection::collectives: return completed(r, phase::collectives);
    case CheckSection::compute: return completed(r, phase::compute);
    case CheckSection::burn: return completed(r, phase::burn);
    case CheckSection::links: return completed(r, phase::links);
    case CheckSection::floors: return completed(r, phase::burn) || completed(r, phase::links);
    case CheckSection::training_proofs:
    case CheckSection::training: return completed(r, phase::train);
    case CheckSection::baseline: return baseline_judged(r, c.id);
  }
  return false;
}

bool raised(const RunReport& r, std::string_view id) {
  return std::any_of(r.checks.begin(), r.checks.end(), [&](const Check& c) { return c.id == id; });
}

}  // namespace

std::vector<std::string_view> checks_that_ran(const RunReport& report) {
  const bool shared_gpu = report.emulation && report.emulation->shared_gpu;
  std::vector<std::string_view> out;
  for (const auto& c : check_table()) {
    if (c.retired || (shared_gpu && c.judges_speed)) continue;
    if (raised(report, c.id) || section_ran(report, c)) out.push_back(c.id);
  }
  return out;
}

}  // namespace gpuscale::results
