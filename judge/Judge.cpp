#include "judge/Judge.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "judge/BaselineRules.hpp"
#include "judge/Findings.hpp"
#include "judge/MidRunTenants.hpp"
#include "judge/PhaseRules.hpp"
#include "judge/SharedGpuLayout.hpp"
#include "judge/TenancyChecks.hpp"
#include "judge/VerdictRules.hpp"
#include "phases/collectives/SuspectRanking.hpp"
#include "phases/env/EnvFigures.hpp"
#include "results/base/CheckIds.hpp"
#include "results/report/RunFigures.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::judge {
namespace {

constexpr std::string_view kEachPhase = "*";
constexpr std::string_view kWholeRun = "";
constexpr std::string_view kFigures = "figures";

std::vector<results::RuleOutcome> judge_baseline(RunReport& report, std::vector<results::Figure>& figures,
                                                 const results::Expectations& expectations) {
  if (!expectations.baseline || (report.emulation && report.emulation->shared_gpu)) return {};
  auto judgement = judge_against_baseline(report, figures, *expectations.baseline,
                                                   expectations.baseline_tolerance);
  auto findings = aggregate_findings(std::move(judgement.findings), report.ranks);  // fills nodes
  results::append_figures(findings, figures);
  report.checks.insert(report.checks.end(), findings.begin(), findings.end());
  return std::move(judgement.rules);
}

// --expect's thresholds of the record rules replace the run's own in the records, so that every reader
// of the written file (the console's SLOW column, the HTML's rounds) shows the threshold that judged it.
void apply_rule_inputs(RunReport& report, const results::RuleInputs& inputs) {
  auto& c = report.collectives;
  if (inputs.busy_utilization_pct) report.busy_utilization_pct = *inputs.busy_utilization_pct;
  if (!c) return;
  if (c->pairs && inputs.pair_threshold) c->pairs->threshold = *inputs.pair_threshold;
  if (c->isolation && inputs.isolate_threshold) c->isolation->threshold = *inputs.isolate_threshold;
}

// The tenants are the judge's output from the looks at the GPUs; a file without looks (written before
// they were kept) keeps its own, marked so.
void apply_tenants(RunReport& report) {
  if (report.tenancy_looks.empty()) {
    report.tenants_not_rejudged = !report.tenants.empty();
    return;
  }
  auto judged = judge_midrun_tenants(report.ranks, report.tenancy_looks, report.busy_utilization_pct);
  report.tenants = std::move(judged.tenants);
  report.shared_phases = std::move(judged.shared_phases);
  report.tenants_not_rejudged = false;
}

// The judge's output that is no mark: the isolation's suspects (phases/collectives/SuspectRanking.hpp),
// ranked afresh from its measurements before the families judge, since the collectives family names
// them in its finding. A file that saved no measurement keeps the suspects it read, marked so.
void apply_suspects(RunReport& report) {
  const auto& c = report.collectives;
  report.suspects = c && c->isolation ? judge_suspects(*c->isolation, report.suspects) : results::SuspectList{};
}

// A family's findings, with what the cross-phase families add to them (RuleFamily::amend).
Judged judged_and_amended(const RuleFamily& f, const RunReport& report, const RuleContext& context) {
  auto judged = f.judge(report, context);
  for (const auto* a : all_rule_families())
    if (a->amend) a->amend(report, f.phase, judged.checks);
  return judged;
}

}  // namespace

Judged judge_records(const RunReport& report) {
  Judged out;
  auto context = rule_context(report);
  const auto families = all_rule_families();
  for (const auto* phase : all_phase_rules()) {
    context.phase = phase->family.phase;
    for (const auto* f : families)
      if (f->phase == context.phase) append(out, judged_and_amended(*f, report, context));
    for (const auto* f : families)
      if (f->phase == kEachPhase) append(out, f->judge(report, context));
  }
  context.phase = kWholeRun;
  for (const auto* f : families)
    if (f->phase == kEachPhase || f->phase == kWholeRun) append(out, f->judge(report, context));
  return out;
}

Judged judge_family(std::string_view name, const RunReport& report) {
  const auto& f = find_rule_family(name);
  return judged_and_amended(f, report, rule_context(report, f.phase));
}

void apply_marks(RunReport& report, const std::vector<RecordMark>& marks) {
  for (const auto& m : marks)
    // A kind of mark that its phase declares no key for would be written nowhere.
    if (!results::find_mark_key(m))
      throw std::logic_error("mark " + std::to_string(m.kind) + " of " + std::string(m.phase) +
                             " is no phase's (results/base/RecordMarks.hpp: MarkKey)");
  report.marks = RecordMarks(marks);
}

void judge(RunReport& report, const results::Expectations& expectations, const FigureAdjust& adjust) {
  apply_rule_inputs(report, expectations.rule_inputs);
  apply_tenants(report);
  apply_suspects(report);
  // The speed rules read which records were measured beside another process: those marks go on first
  // (the tenancy family raises them again below, with every other family's).
  apply_marks(report, beside_tenant_marks(report, rule_context(report)));
  auto judged = judge_records(report);
  std::vector<Check> checks;
  for (auto& c : report.checks)
    if (!results::check_ids::is_known(c.id)) checks.push_back(std::move(c));
  append(checks, std::move(judged.checks));
  report.checks = std::move(checks);
  apply_marks(report, judged.marks);
  // The figures include the records' marks and the checks so far (flatten).
  auto figures = results::flatten(report);
  if (adjust) adjust(figures);
  report.outliers.clear();
  const auto context = rule_context(report, kFigures, &figures);
  for (const auto* f : all_rule_families()) {
    if (f->phase != kFigures) continue;
    auto found = f->judge(report, context);
    append(report.checks, std::move(found.checks));
    for (auto& o : found.outliers) report.outliers.push_back(std::move(o));
  }
  report.checks = aggregate_findings(std::move(report.checks), report.ranks);
  if (report.emulation && report.emulation->shared_gpu) set_aside_speed_checks(report.checks);
  const auto baseline_rules = judge_baseline(report, figures, expectations);
  report.verdict = evaluate_verdict(report, figures, expectations, baseline_rules);
}

}  // namespace gpuscale::judge
