#include "judge/Coverage.hpp"

#include <algorithm>
#include <string>

#include "judge/PhaseRules.hpp"
#include "judge/base/ItemMeasured.hpp"
#include "results/base/Format.hpp"
#include "results/schema/PhasesCompleted.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

// How a reason says that the job needed the item, and where a partial item's reason gives why the rest
// is missing: coverage_rule reads them back to say why in one line.
constexpr std::string_view kNeededNote = " (needed: multi-GPU)";
constexpr std::string_view kTheRest = "; the rest ";

// What the phase's rules (`phase`, null for a phase the registry does not hold) count of the item, and
// say of it.
ItemMeasured item_measured(const PhaseRules* phase, const RunReport& r, const PlannedItem& item) {
  return phase && phase->measured ? phase->measured(r, item) : measured_if(false);
}

ItemTraits item_traits(const PhaseRules* phase, const PlannedItem& item) {
  return phase && phase->item_traits ? phase->item_traits(item) : ItemTraits{};
}

// Why a phase that the plan holds did not run: skipped for an env check, or the run ended before it.
// "" when it ran; `still_running`: the file was written before the phase was reached.
std::string phase_not_run(const RunReport& r, const std::string& phase, bool& still_running) {
  still_running = false;
  for (const auto& s : r.phases_skipped)
    if (s.phase == phase) return "phase not run: " + s.reason;
  if (results::phase_completed(r, phase)) return "";
  if (r.failure || r.interrupted)
    return std::string("phase not run: the run ") + (r.interrupted ? "was interrupted" : "failed");
  if (r.complete) return "phase not run";
  still_running = true;
  return "not reached yet";
}

bool phase_dropped_work(const RunReport& r, const std::string& phase) {
  if (!r.budget) return false;
  for (const auto& p : r.budget->phases)
    if (p.phase == phase && !p.dropped.empty()) return true;
  return false;
}

std::string measured_of_total(const ItemMeasured& m, std::string_view unit) {
  return std::to_string(m.done) + " of " + (unit.empty() ? std::to_string(m.total) : results::plural(m.total, unit)) +
         " measured";
}

CoverageItem judge_planned_item(const RunReport& r, const PlannedItem& item, bool require_complete) {
  CoverageItem out{item.phase, item.name, RuleResult::pass, "", false};
  const auto* phase = find_phase_rules(item.phase);
  const auto traits = item_traits(phase, item);
  if (traits.measures_links && item.gpus < 2) {
    out.result = RuleResult::skip;
    out.reason = traits.one_rank;
    return out;
  }
  bool still_running = false;
  if (const auto why = phase_not_run(r, item.phase, still_running); !why.empty()) {
    out.result = still_running || !require_complete ? RuleResult::skip : RuleResult::fail;
    out.reason = why;
    out.needed = !still_running;
    return out;
  }
  const ItemMeasured m = item_measured(phase, r, item);
  if (m.done >= m.total) return out;
  // Not all of it: a record's own reason (out of memory, cannot run here), else the budget, else no
  // trace of it at all (which a run that planned it must not pass for the job's needs).
  const bool dropped = m.skipped.empty();
  std::string why = !dropped                            ? m.skipped
                    : phase_dropped_work(r, item.phase) ? "dropped: budget spent"
                                                        : "no record of it";
  // Work the job needed: collectives or DDP over more than one GPU (a whole phase not run is needed too,
  // whatever its items).
  out.needed = dropped && traits.needed_over_gpus && item.gpus >= 2;
  if (out.needed) why += kNeededNote;
  out.reason = m.done > 0 ? measured_of_total(m, traits.unit) + std::string(kTheRest) + why : why;
  out.result = out.needed && require_complete ? RuleResult::fail : m.done > 0 ? RuleResult::warn : RuleResult::skip;
  return out;
}

}  // namespace

std::vector<CoverageItem> judge_coverage(const RunReport& report, bool require_complete) {
  std::vector<CoverageItem> out;
  if (!report.plan) return out;
  for (const auto& item : report.plan->items) out.push_back(judge_planned_item(report, item, require_complete));
  return out;
}

std::optional<RuleOutcome> coverage_rule(const RunReport& report, const std::vector<CoverageItem>& coverage,
                                         bool require_complete) {
  const std::string name = "planned work done";
  if (!report.plan) {
    if (!require_complete) return std::nullopt;
    return RuleOutcome{name, RuleResult::fail,
                       "--require-complete: the run holds no plan (written by an older gpuscale), so what it "
                       "left out cannot be known"};
  }
  std::vector<std::string> missing, whys;
  std::size_t measured = 0, skipped = 0;
  for (const auto& c : coverage) {
    if (c.result == RuleResult::pass) ++measured;
    if (c.result == RuleResult::skip) ++skipped;
    if (!c.needed) continue;
    const auto rest = c.reason.find(kTheRest);
    missing.push_back(c.phase + " " + c.item + (rest == std::string::npos ? "" : " (in part)"));
    std::string why = rest == std::string::npos ? c.reason : c.reason.substr(rest + kTheRest.size());
    if (why.ends_with(kNeededNote)) why.resize(why.size() - kNeededNote.size());
    if (std::find(whys.begin(), whys.end(), why) == whys.end()) whys.push_back(why);
  }
  const std::string counts = std::to_string(coverage.size()) + " planned, " + std::to_string(measured) +
                             " measured in full, " + std::to_string(skipped) + " skipped";
  if (missing.empty()) return RuleOutcome{name, RuleResult::pass, counts};
  constexpr std::size_t kNamed = 3;
  std::string text = "work the job needed was not measured: ";
  for (std::size_t i = 0; i < missing.size() && i < kNamed; ++i) text += (i ? ", " : "") + missing[i];
  if (missing.size() > kNamed) text += " and " + std::to_string(missing.size() - kNamed) + " more";
  text += " (";
  for (std::size_t i = 0; i < whys.size() && i < kNamed; ++i) text += (i ? "; " : "") + whys[i];
  text += ")";
  if (!require_complete) text += "; --require-complete fails this";
  return RuleOutcome{name, require_complete ? RuleResult::fail : RuleResult::warn, text};
}

}  // namespace gpuscale::judge
