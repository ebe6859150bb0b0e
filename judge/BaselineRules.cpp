#include "judge/BaselineRules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include "judge/Findings.hpp"
#include "judge/Regression.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Format.hpp"
#include "results/models/Compare.hpp"
#include "results/render/FindingText.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

// A tolerance relative to a median of 0 is infinite: no finite value is past it.
std::string tolerance_text(double tolerance) {
  return std::isinf(tolerance) ? "any value: the baseline varies around a median of 0" : percent(tolerance, 1);
}

std::string figure_name(const BaselineFigure& f) {
  return f.phase + " " + f.metric + (f.labels.empty() ? "" : " " + labels_text(f.labels));
}

// Four significant digits: enough to see a drop of a few percent, short enough to read.
std::string with_unit(double value, const std::string& unit) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text + (unit.empty() ? "" : " " + unit);
}

// "12.0% below the baseline median 5 s": how far a figure moved the worse way. A move away from a
// median of 0 has no percentage that means anything, and a NaN none at all: those say so in words.
std::string change_text(double worse, const BaselineFigure& b) {
  const std::string median = "the baseline median " + with_unit(b.median, b.unit);
  const char* side = b.better == Better::higher ? "below " : "above ";
  if (std::isnan(worse)) return "not a number, against " + median;
  if (std::isinf(worse)) return side + median + " (a change from 0 has no percentage)";
  return percent(worse, 1) + " " + side + median;
}

std::string rank_text(int rank, const RunReport& run) {
  std::string text = "rank " + std::to_string(rank);
  if (rank >= 0 && static_cast<std::size_t>(rank) < run.ranks.size() && !run.ranks[rank].host.empty())
    text += " (" + run.ranks[rank].host + ")";
  return text;
}

std::string ranks_text(const std::vector<int>& ranks, const RunReport& run) {
  if (ranks.empty()) return "the whole job";
  std::string text;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) text += (i ? ", " : "") + rank_text(ranks[i], run);
  if (ranks.size() > 8) text += " and " + std::to_string(ranks.size() - 8) + " more";
  return text;
}

int rank_of(const Figure& f) {
  const auto text = label_or_empty(f, names::kRank);
  return text.empty() ? -1 : std::atoi(text.c_str());
}

// The run's figures that a baseline entry judges: the one with its key, or every rank's.
std::vector<const Figure*> matching(const std::vector<const Figure*>& figures, const BaselineFigure& b) {
  std::vector<const Figure*> found;
  for (const auto* f : figures)
    if (f->unit == b.unit) found.push_back(f);
  return found;
}

// One rule's findings, aggregated as they come (a baseline of a million figures can find a million):
// one check (judge/Findings.hpp: merge_finding) and one verdict line, naming the first few figures.
struct RuleLines {
  explicit RuleLines(const char* rule_id) : id(rule_id) {}
  const char* id;
  std::string pass_detail;
  std::optional<Check> finding;
  std::string first_figure, listed;
  void add(const std::string& figure, const std::string& detail, std::vector<int> ranks) {
    Check c{id, Severity::error, std::move(ranks), figure + ": " + detail};
    const bool first = !finding;
    if (first) {
      finding = std::move(c);
      first_figure = figure;
      listed = detail;
      return;
    }
    if (finding->count < static_cast<int>(kListed)) listed += "; " + c.message;
    merge_finding(*finding, std::move(c));
  }
  void emit(BaselineJudgement& out) const {
    if (!finding) {
      out.rules.push_back({id, RuleResult::pass, pass_detail});
      return;
    }
    out.findings.push_back(*finding);
    const std::size_t n = static_cast<std::size_t>(finding->count);
    if (n == 1) {
      out.rules.push_back({std::string(id) + " " + first_figure, RuleResult::fail, listed});
      return;
    }
    out.rules.push_back({finding_name(*finding), RuleResult::fail,
                         first_figure + ": " + listed + (n > kListed ? "; and " + std::to_string(n - kListed) +
                                                                           " more (checks[].details in the JSON)"
                                                                     : std::string())});
  }
  static constexpr std::size_t kListed = 3;
};

// Whether the run's figure is judged against the entry (FigureNoise.hpp: not a local copy, not timed
// under 10 us in the run or, for a time, at the baseline's median).
bool judged_against(const BaselineFigure& b, const Figure& f) {
  if (!not_judged_reason(f).empty()) return false;
  return !(b.unit == "s" && b.median > 0 && b.median < kShortestJudgedTime_s);
}

// Returns how many of `measured` it did not judge.
std::size_t judge_drop(const BaselineFigure& b, const std::vector<const Figure*>& measured, const RunReport& run,
                       const BaselineGroup& group, const ToleranceOverrides& overrides, RuleLines& lines) {
  if (b.better == Better::none) return 0;
  const double tolerance = tolerance_for(b, overrides);
  const Figure* worst = nullptr;
  double worst_change = 0;
  std::vector<int> ranks;
  std::size_t unjudged = 0;
  for (const auto* f : measured) {
    if (!judged_against(b, *f)) {
      ++unjudged;
      continue;
    }
    const double change = relative_change(b.median, f->value);
    if (!regressed(b.better, change, tolerance)) continue;
    if (const int rank = rank_of(*f); rank >= 0) ranks.push_back(rank);
    const double worse = b.better == Better::higher ? -change : change;
    if (!worst || std::isnan(change) || worse > worst_change) {
      worst = f;
      worst_change = worse;
    }
  }
  if (!worst) return unjudged;
  std::sort(ranks.begin(), ranks.end());
  const std::string detail =
      "measured " + with_unit(worst->value, b.unit) + (rank_of(*worst) >= 0 ? " on " + rank_text(rank_of(*worst), run) : "") +
      ", " + change_text(worst_change, b) + " (tolerance " +
      tolerance_text(tolerance) + ", " + std::to_string(group.runs) + " runs); " + ranks_text(ranks, run);
  lines.add(figure_name(b), detail, std::move(ranks));
  return unjudged;
}

}  // namespace

BaselineJudgement judge_against_baseline(const RunReport& run, const std::vector<Figure>& figures,
                                         const Baseline& baseline, const ToleranceOverrides& overrides) {
  BaselineJudgement out;
  RuleLines drop(check_ids::kBaselineDrop), missing(check_ids::kBaselineMissing), fresh(check_ids::kBaselineNewFailure);
  const auto shape = machine_shape(run);
  const BaselineGroup* group = find_group(baseline, shape);
  if (!group) {
    std::string shapes;
    for (const auto& g : baseline.groups) shapes += (shapes.empty() ? "" : "; ") + describe(g.shape);
    const std::string detail = "the baseline has no figures for " + describe(shape) + " (it has: " +
                               (shapes.empty() ? "nothing" : shapes) + ")";
    out.findings.push_back({check_ids::kBaselineMissing, Severity::error, {}, detail});
    out.rules.push_back({std::string(check_ids::kBaselineMissing) + " machine shape", RuleResult::fail, detail});
    return out;
  }
  std::map<std::string, std::vector<const Figure*>> by_key;
  for (const auto& f : figures)
    if (f.phase != names::kChecks) by_key[baseline_key(f)].push_back(&f);
  const std::set<std::string> phases(run.phases_completed.begin(), run.phases_completed.end());
  std::size_t judged = 0, required = 0, not_run = 0, unjudged = 0;
  for (const auto& b : group->figures) {
    if (!phases.count(b.phase)) {
      ++not_run;
      continue;
    }
    const auto it = by_key.find(baseline_key(b));
    const auto measured = it == by_key.end() ? std::vector<const Figure*>{} : matching(it->second, b);
    if (b.runs == group->runs) ++required;
    if (measured.empty()) {
      if (b.runs < group->runs) continue;  // not measured by every baseline run either
      const std::string detail = "not measured; every baseline run measured it (median " +
                                 with_unit(b.median, b.unit) + ")";
      missing.add(figure_name(b), detail, {});
      continue;
    }
    judged += b.better == Better::none ? 0 : 1;
    unjudged += judge_drop(b, measured, run, *group, overrides, drop);
  }
  const std::set<std::string> passed(group->checks_passed.begin(), group->checks_passed.end());
  for (const auto& c : run.checks) {
    if (c.severity == Severity::info || !passed.count(c.id)) continue;
    const std::string detail = std::string(to_string(c.severity)) + " on " + ranks_text(c.ranks, run) +
                               ", raised in none of the " + std::to_string(group->runs) + " baseline runs: " +
                               c.message;
    fresh.add(c.id, detail, c.ranks);
  }
  const std::string where = " (" + describe(group->shape) + ", " + std::to_string(group->runs) + " runs)";
  drop.pass_detail = std::to_string(judged) + " figures within their tolerance of the baseline" + where +
                     (unjudged ? "; " + std::to_string(unjudged) +
                                     " not judged (one-rank local copies, times under 10 us)"
                               : std::string());
  missing.pass_detail = "all " + std::to_string(required) + " figures every baseline run measured are here" +
                        (not_run ? "; " + std::to_string(not_run) + " of phases this run did not complete not judged"
                                 : std::string());
  fresh.pass_detail = "none of the " + std::to_string(passed.size()) + " checks that passed in every baseline run fails";
  drop.emit(out);
  missing.emit(out);
  fresh.emit(out);
  return out;
}

}  // namespace gpuscale::judge
