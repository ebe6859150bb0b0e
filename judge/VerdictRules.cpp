#include "judge/VerdictRules.hpp"

#include <algorithm>
#include <string>

#include "judge/Coverage.hpp"
#include "judge/Findings.hpp"
#include "judge/PhaseRules.hpp"
#include "judge/ThresholdScope.hpp"
#include "judge/base/RecordSkips.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/render/FindingText.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

// How many findings or figures one verdict line names before it counts the rest.
constexpr std::size_t kNamedInLine = 3;

std::string figure_text(const Figure& f) {
  return f.phase + " " + f.metric + (f.labels.empty() ? "" : " " + labels_text(f.labels)) + " = " +
         shortest(f.value) + (f.unit.empty() ? "" : " " + f.unit);
}

// The run's own checks: findings against a --baseline have their own lines, one per finding.
// At most kNamedInLine names, then how many more: the verdict line stays one line at any job size.
std::string names_text(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < kNamedInLine; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > kNamedInLine) text += " and " + std::to_string(names.size() - kNamedInLine) + " more";
  return text;
}

RuleOutcome checks_rule(const std::vector<Check>& raised) {
  std::vector<std::string> errors, warnings;
  std::size_t own = 0;
  for (const auto& c : aggregate_findings(raised, {})) {
    if (check_ids::is_baseline(c.id)) continue;
    ++own;
    if (c.severity == Severity::error) errors.push_back(finding_name(c));
    if (c.severity == Severity::warning) warnings.push_back(finding_name(c));
  }
  if (!errors.empty()) return {"no error checks", RuleResult::fail, "errors: " + names_text(errors)};
  if (!warnings.empty()) return {"no error checks", RuleResult::warn, "warnings: " + names_text(warnings)};
  return {"no error checks", RuleResult::pass, plural(own, "check") + ", none an error"};
}

// Whether a rule judges how fast the GPUs are (not whether they compute right): such a rule leaves out
// the figures measured beside another process on the GPU, which gpu-in-use judges.
enum class Judges { correctness, speed };

// One built-in rule over every figure of `metric`: `bad` picks the offenders. Absent when no figure
// of that metric exists (the phase that produces it did not run).
template <class Bad>
void figure_rule(const std::vector<Figure>& figures, const char* metric, const char* name, Judges judges,
                 RuleResult if_bad, Bad bad, std::vector<RuleOutcome>& out) {
  std::size_t seen = 0;
  std::string offenders;
  std::size_t offender_count = 0;
  for (const auto& f : figures) {
    if (f.metric != metric || (judges == Judges::speed && f.beside_tenant)) continue;
    ++seen;
    if (!bad(f.value)) continue;
    if (++offender_count <= kNamedInLine) offenders += (offenders.empty() ? "" : "; ") + figure_text(f);
  }
  if (seen == 0) return;
  if (offender_count == 0) {
    out.push_back({name, RuleResult::pass, plural(seen, "figure") + " ok"});
    return;
  }
  if (offender_count > kNamedInLine) offenders += "; and " + std::to_string(offender_count - kNamedInLine) + " more";
  out.push_back({name, if_bad, offenders});
}

// A threshold judges the figures it names (ThresholdScope.hpp): none of them is a SKIP where the run's
// plan and shape never make one, else a FAIL.
RuleOutcome threshold_rule(const Threshold& t, const std::vector<Figure>& figures, const RunReport& report) {
  if (auto why = shared_gpu_skip(t, report); !why.empty()) return {t.name, RuleResult::skip, why};
  std::size_t seen = 0, one_gpu = 0;
  const Figure* worst = nullptr;
  double worst_miss = 0;
  for (const auto& f : figures) {
    if (f.metric != t.metric || (!t.phase.empty() && f.phase != t.phase) || !labels_match(f, t.labels)) continue;
    if (one_gpu_figure_unnamed(t, f)) {
      ++one_gpu;
      continue;
    }
    ++seen;
    const double miss = std::max(t.min ? *t.min - f.value : 0.0, t.max ? f.value - *t.max : 0.0);
    if (miss > worst_miss || (f.value != f.value)) {  // NaN never satisfies a threshold
      worst = &f;
      worst_miss = miss;
    }
  }
  if (seen == 0) {
    // One rank makes only such figures; on more, the figures over several GPUs should be there.
    if (one_gpu && report.world_size < 2)
      return {t.name, RuleResult::skip,
              "one rank: only figures of one GPU (a collective as a local copy, DDP without scaling); "
              "name ranks 1 or gpus 1 to judge them"};
    if (auto why = threshold_out_of_scope(t, report); !why.empty()) return {t.name, RuleResult::skip, why};
    return {t.name, RuleResult::fail,
            "not measured: no figure matches this threshold, though the run's plan and shape make one" +
                why_not_measured(t, report)};
  }
  if (worst) return {t.name, RuleResult::fail, "missed by " + figure_text(*worst)};
  return {t.name, RuleResult::pass, plural(seen, "figure") + " within the threshold"};
}

RuleOutcome must_pass_rule(const std::string& id, const std::vector<Check>& checks) {
  for (const auto& c : checks)
    if (c.id == id && c.severity != Severity::info)
      return {"check " + id + " passes", RuleResult::fail, std::string(to_string(c.severity)) + ": " + c.message};
  return {"check " + id + " passes", RuleResult::pass, "not raised"};
}

std::string phases_text(const std::vector<std::string>& phases) {
  if (phases.empty()) return "no phase";
  std::string text = "phases ";
  for (const auto& p : phases) text += (&p == &phases.front() ? "" : ", ") + p;
  return text;
}

// A phase that ran and skipped every one of its measurements (-e past the memory, a strategy that
// cannot run here) fails: a run that measured nothing did not pass. A phase where some records were
// skipped and others measured (DP skipped where each rank sees one GPU) is judged by its figures.
void nothing_measured_rules(const RunReport& report, std::vector<RuleOutcome>& out) {
  for (const auto* phase : all_phase_rules()) {
    if (!phase->count_skips) continue;
    RecordSkips skips;
    phase->count_skips(report, skips);
    if (skips.records == 0 || skips.skipped < skips.records) continue;
    std::string reasons;
    for (std::size_t i = 0; i < skips.reasons.size() && i < 3; ++i) reasons += (i ? "; " : "") + skips.reasons[i];
    if (skips.reasons.size() > 3) reasons += "; and " + std::to_string(skips.reasons.size() - 3) + " more";
    out.push_back({std::string(phase->family.phase) + " measured something", RuleResult::fail,
                   "all " + std::to_string(skips.records) + " skipped: " + reasons});
  }
}

}  // namespace

Verdict evaluate_verdict(const RunReport& report, const std::vector<Figure>& figures,
                         const Expectations& expectations, const std::vector<RuleOutcome>& baseline_rules) {
  Verdict v;
  // A run cut short fails whatever its figures say: the phases that did not run measured nothing.
  if (report.failure)
    v.rules.push_back({"run completed", RuleResult::fail,
                       (report.interrupted ? "interrupted: " : "failed: ") + report.failure->message});
  else if (report.interrupted)
    v.rules.push_back({"run completed", RuleResult::fail, "interrupted"});
  else if (!report.complete)
    v.rules.push_back({"run completed", RuleResult::fail,
                       "not finished: the job wrote this after " + phases_text(report.phases_completed) +
                           " and was still running, or ended without a word (killed)"});
  v.incomplete = !report.failure && !report.interrupted && !report.complete;
  v.rules.push_back(checks_rule(report.checks));
  nothing_measured_rules(report, v.rules);
  const bool require_complete = expectations.require_complete || (report.plan && report.plan->require_complete);
  v.coverage = judge_coverage(report, require_complete);
  if (auto rule = coverage_rule(report, v.coverage, require_complete)) v.rules.push_back(std::move(*rule));
  figure_rule(figures, names::kWrongElements, "no wrong elements", Judges::correctness, RuleResult::fail,
              [](double value) { return !(value == 0); }, v.rules);
  if (report.emulation && report.emulation->shared_gpu) {
    // The rules it stands in for, skipped: a test layout's speed is its ranks' contention.
    v.rules.push_back({"no stragglers, links used well", RuleResult::skip,
                       "not judged: " + emulation_text(*report.emulation, report.node_count)});
  } else {
    figure_rule(figures, names::kStragglerSpread, "no stragglers", Judges::speed, RuleResult::warn,
                [t = report.straggler_threshold](double value) { return value > t; }, v.rules);
    // The collective-below-link check's threshold, so that one number (the user's) decides both lines.
    const double link_threshold = report.collectives ? report.collectives->link_threshold : 0.0;
    figure_rule(figures, names::kLinkUse, "links used well", Judges::speed, RuleResult::warn,
                [link_threshold](double value) { return value < link_threshold; }, v.rules);
  }
  for (const auto& id : expectations.checks_must_pass) v.rules.push_back(must_pass_rule(id, report.checks));
  v.rules.insert(v.rules.end(), baseline_rules.begin(), baseline_rules.end());
  if (expectations.source) v.rules.push_back(*expectations.source);
  for (const auto& t : expectations.thresholds) v.rules.push_back(threshold_rule(t, figures, report));
  for (const auto& r : v.rules) {
    if (r.result == RuleResult::pass || r.result == RuleResult::skip) continue;
    if (r.result == RuleResult::fail) v.passed = false;
    v.reasons.push_back(std::string(to_string(r.result)) + " " + r.name + ": " + r.detail);
  }
  return v;
}

}  // namespace gpuscale::judge
