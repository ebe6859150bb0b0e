#include "results/report/ChecksRan.hpp"

#include <algorithm>
#include <string>

#include "results/base/CheckTable.hpp"
#include "results/schema/PhasesCompleted.hpp"
#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

// A verdict rule of the baseline is named by its check id, alone or followed by the figure it failed.
bool baseline_judged(const RunReport& r, std::string_view id) {
  return std::any_of(r.verdict.rules.begin(), r.verdict.rules.end(), [&](const RuleOutcome& rule) {
    const std::string_view name(rule.name);
    return name.substr(0, id.size()) == id && (name.size() == id.size() || name[id.size()] == ' ');
  });
}

// A phase's sections ran once it completed (PhaseView::check_sections); budget only in a run that kept
// one, a baseline check only where the verdict judged it.
bool section_ran(const RunReport& r, const CheckInfo& c) {
  if (c.section == CheckSection::baseline) return baseline_judged(r, c.id);
  if (c.section == CheckSection::budget && !r.budget) return false;
  return std::any_of(phase_views().begin(), phase_views().end(), [&](const PhaseView& view) {
    const auto& sections = view.check_sections;
    return phase_completed(r, view.name) && std::find(sections.begin(), sections.end(), c.section) != sections.end();
  });
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
