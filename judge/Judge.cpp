#include "judge/Judge.hpp"

#include <algorithm>
#include <utility>

#include "judge/BaselineRules.hpp"
#include "judge/MidRunTenants.hpp"
#include "judge/PhaseRules.hpp"
#include "judge/TenancyChecks.hpp"
#include "judge/VerdictRules.hpp"
#include "results/models/EnvFigures.hpp"
#include "results/models/Findings.hpp"
#include "results/models/RunFigures.hpp"
#include "results/schema/CheckIds.hpp"
#include "results/schema/Emulation.hpp"

namespace gpuscale::judge {
namespace {

constexpr std::string_view kEachPhase = "*";
constexpr std::string_view kWholeRun = "";
constexpr std::string_view kFigures = "figures";

template <class T>
void set(std::vector<T>& records, std::size_t index, auto&& apply) {
  if (index < records.size()) apply(records[index]);
}

void set_mark(RunReport& report, const RecordMark& m) {
  switch (m.mark) {
    case Mark::compute_straggler: set(report.compute, m.index, [](auto& r) { r.straggler = true; }); break;
    case Mark::train_straggler:
      set(report.train.records, m.index, [&](auto& r) { set(r.ranks, m.rank_index, [](auto& k) { k.straggler = true; }); });
      break;
    case Mark::burn_slow: set(report.burn, m.index, [](auto& r) { r.slow = true; }); break;
    case Mark::burn_wrong_result: set(report.burn, m.index, [](auto& r) { r.wrong_result = true; }); break;
    case Mark::burn_floor: set(report.burn, m.index, [&](auto& r) { r.floor_tflops = m.value; }); break;
    case Mark::links_h2d_slow: set(report.links, m.index, [](auto& r) { r.h2d_slow = true; }); break;
    case Mark::links_hbm_slow: set(report.links, m.index, [](auto& r) { r.hbm_slow = true; }); break;
    case Mark::links_h2d_floor: set(report.links, m.index, [&](auto& r) { r.h2d_floor_gbps = m.value; }); break;
    case Mark::links_hbm_floor: set(report.links, m.index, [&](auto& r) { r.hbm_floor_gbps = m.value; }); break;
    case Mark::compute_beside_tenant: set(report.compute, m.index, [](auto& r) { r.beside_tenant = true; }); break;
    case Mark::burn_beside_tenant: set(report.burn, m.index, [](auto& r) { r.beside_tenant = true; }); break;
    case Mark::links_beside_tenant: set(report.links, m.index, [](auto& r) { r.beside_tenant = true; }); break;
    case Mark::train_beside_tenant: set(report.train.records, m.index, [](auto& r) { r.beside_tenant = true; }); break;
    case Mark::sweep_beside_tenant:
      if (report.collectives) set(report.collectives->sweeps, m.index, [](auto& r) { r.beside_tenant = true; });
      break;
    case Mark::scaling_beside_tenant:
      if (report.collectives) set(report.collectives->scaling, m.index, [](auto& r) { r.beside_tenant = true; });
      break;
    case Mark::pair_beside_tenant:
      if (report.collectives && report.collectives->pairs)
        set(report.collectives->pairs->pairs, m.index, [](auto& r) { r.beside_tenant = true; });
      break;
    case Mark::pair_slow:
      if (report.collectives && report.collectives->pairs)
        set(report.collectives->pairs->pairs, m.index, [](auto& r) { r.slow = true; });
      break;
  }
}

std::vector<results::RuleOutcome> judge_baseline(RunReport& report, std::vector<results::Figure>& figures,
                                                 const results::Expectations& expectations) {
  if (!expectations.baseline || (report.emulation && report.emulation->shared_gpu)) return {};
  auto judgement = judge_against_baseline(report, figures, *expectations.baseline,
                                                   expectations.baseline_tolerance);
  auto findings = results::aggregate_findings(std::move(judgement.findings), report.ranks);  // fills nodes
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

// The judge's output that is no mark: the isolation's suspects.
void apply_suspects(RunReport& report, std::optional<SuspectJudgement>&& judged) {
  if (!report.collectives || !report.collectives->isolation || !judged) return;
  report.collectives->isolation->suspects = std::move(judged->suspects);
  report.collectives->isolation->suspects_not_rejudged = judged->not_rejudged;
}

}  // namespace

Judged judge_records(const RunReport& report) {
  Judged out;
  RuleContext context{report.straggler_threshold, {}, nullptr};
  const auto families = all_rule_families();
  for (const auto* phase : all_phase_rules()) {
    context.phase = phase->family.phase;
    for (const auto* f : families)
      if (f->phase == context.phase) append(out, f->judge(report, context));
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
  return f.judge(report, RuleContext{report.straggler_threshold, f.phase, nullptr});
}

void apply_marks(RunReport& report, const std::vector<RecordMark>& marks) {
  for (auto& r : report.compute) r.straggler = r.beside_tenant = false;
  for (auto& r : report.train.records) {
    r.beside_tenant = false;
    for (auto& k : r.ranks) k.straggler = false;
  }
  for (auto& r : report.burn) {
    r.slow = r.wrong_result = r.beside_tenant = false;
    r.floor_tflops.reset();
  }
  for (auto& r : report.links) {
    r.h2d_slow = r.hbm_slow = r.beside_tenant = false;
    r.h2d_floor_gbps.reset();
    r.hbm_floor_gbps.reset();
  }
  if (auto& c = report.collectives) {
    for (auto& s : c->sweeps) s.beside_tenant = false;
    for (auto& p : c->scaling) p.beside_tenant = false;
    if (c->pairs)
      for (auto& p : c->pairs->pairs) p.beside_tenant = p.slow = false;
  }
  for (const auto& m : marks) set_mark(report, m);
}

void judge(RunReport& report, const results::Expectations& expectations, const FigureAdjust& adjust) {
  apply_rule_inputs(report, expectations.rule_inputs);
  apply_tenants(report);
  // The speed rules read which records were measured beside another process: those marks go on first
  // (the tenancy family raises them again below, with every other family's).
  apply_marks(report, beside_tenant_marks(report));
  auto judged = judge_records(report);
  std::vector<Check> checks;
  for (auto& c : report.checks)
    if (!results::check_ids::is_known(c.id)) checks.push_back(std::move(c));
  append(checks, std::move(judged.checks));
  report.checks = std::move(checks);
  apply_marks(report, judged.marks);
  apply_suspects(report, std::move(judged.suspects));
  // The figures include the records' marks and the checks so far (flatten).
  auto figures = results::flatten(report);
  if (adjust) adjust(figures);
  report.outliers.clear();
  const RuleContext context{report.straggler_threshold, kFigures, &figures};
  for (const auto* f : all_rule_families()) {
    if (f->phase != kFigures) continue;
    auto found = f->judge(report, context);
    append(report.checks, std::move(found.checks));
    for (auto& o : found.outliers) report.outliers.push_back(std::move(o));
  }
  report.checks = results::aggregate_findings(std::move(report.checks), report.ranks);
  if (report.emulation && report.emulation->shared_gpu) results::set_aside_speed_checks(report.checks);
  const auto baseline_rules = judge_baseline(report, figures, expectations);
  report.verdict = evaluate_verdict(report, figures, expectations, baseline_rules);
}

}  // namespace gpuscale::judge
