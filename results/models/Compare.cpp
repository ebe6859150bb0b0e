#include "results/models/Compare.hpp"

#include <cmath>
#include <limits>
#include <map>

#include "results/base/FigureNames.hpp"
#include "results/base/FigureNoise.hpp"
#include "results/base/Format.hpp"
#include "results/base/Table.hpp"

namespace gpuscale::results {
namespace {

// A change from 0 has no percentage: it says which way it went.
std::string signed_change(double change) {
  if (std::isinf(change)) return change > 0 ? "up from 0" : "down from 0";
  if (std::isnan(change)) return "not a number";
  return (change >= 0 ? "+" : "") + fixed(change * 100, 1) + "%";
}

// The missing figures named one per line, the first kListedMissing of each list.
constexpr std::size_t kListedMissing = 20;

void write_figures(const std::vector<const Figure*>& figures, std::ostream& out) {
  for (std::size_t i = 0; i < figures.size() && i < kListedMissing; ++i) {
    const auto& f = *figures[i];
    out << "  " << f.phase << ' ' << f.metric << (f.labels.empty() ? "" : " " + labels_text(f.labels)) << " (base "
        << shortest(f.value) << (f.unit.empty() ? "" : " " + f.unit) << ")\n";
  }
  if (figures.size() > kListedMissing) out << "  and " << figures.size() - kListedMissing << " more\n";
}

bool dropped_by_budget(const Figure& f, const CompareVerdict& v) { return v.budget_dropped.count(f.phase) > 0; }

void write_missing(const Comparison& c, const CompareVerdict& v, std::ostream& out) {
  std::vector<const Figure*> missing, dropped;
  for (const auto& f : c.missing) (dropped_by_budget(f, v) ? dropped : missing).push_back(&f);
  if (!missing.empty()) {
    out << "Missing from the new run (" << missing.size() << (v.allow_missing ? ", allowed by --allow-missing" : "")
        << "):\n";
    write_figures(missing, out);
  }
  if (dropped.empty()) return;
  out << "Missing where the new run's budget dropped work (" << dropped.size()
      << ", not counted: the new run's verdict judges what it left out):\n";
  for (const auto& [phase, what] : v.budget_dropped) out << "  " << phase << " dropped " << what << '\n';
  write_figures(dropped, out);
}

}  // namespace

double relative_change(double base, double latest) {
  if (base == latest) return 0;
  if (base == 0) return latest > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  return (latest - base) / std::fabs(base);
}

std::size_t Comparison::regressions() const {
  std::size_t n = 0;
  for (const auto& c : changes) n += c.regression ? 1 : 0;
  return n;
}

std::size_t Comparison::not_judged() const {
  std::size_t n = 0;
  for (const auto& c : changes) n += c.not_judged.empty() ? 0 : 1;
  return n;
}

Comparison match_figures(const std::vector<Figure>& base, const std::vector<Figure>& latest, double tolerance,
                         const RegressionTest& regressed) {
  Comparison result;
  result.tolerance = tolerance;
  std::map<std::string, const Figure*> by_key;
  for (const auto& f : latest) by_key.emplace(figure_key(f), &f);  // first of duplicates wins
  std::size_t matched = 0;
  for (const auto& b : base) {
    const auto it = by_key.find(figure_key(b));
    if (it == by_key.end() || it->second->unit != b.unit) {
      // A check's figure stands for the check being raised: one the new run did not raise is no loss.
      if (b.phase == names::kChecks) ++result.checks_cleared;
      else result.missing.push_back(b);
      continue;
    }
    ++matched;
    const Figure& n = *it->second;
    FigureChange change{b, n.value, relative_change(b.value, n.value)};
    change.not_judged = b.better == Better::none ? "" : not_judged_reason(b, n);
    change.regression = change.not_judged.empty() && regressed(b, n, change.relative_change);
    result.changes.push_back(std::move(change));
  }
  result.only_in_new = latest.size() > matched ? latest.size() - matched : 0;
  return result;
}

std::size_t unexplained_missing(const Comparison& c, const CompareVerdict& v) {
  std::size_t n = 0;
  for (const auto& f : c.missing) n += dropped_by_budget(f, v) ? 0 : 1;
  return n;
}

void write_comparison(const Comparison& c, const CompareVerdict& v, bool fails, std::ostream& out) {
  Table t({"", "phase", "metric", "labels", "base", "new", "unit", "change", "better", "note"});
  for (const auto& ch : c.changes) {
    t.add_row({ch.regression ? "REGRESSION" : "", ch.base.phase, ch.base.metric, labels_text(ch.base.labels),
               shortest(ch.base.value), shortest(ch.new_value), ch.base.unit, signed_change(ch.relative_change),
               std::string(to_string(ch.base.better)), ch.not_judged.empty() ? "" : "not judged: " + ch.not_judged});
  }
  out << "Comparison (tolerance " << fixed(c.tolerance * 100, 1)
      << "%, and past both runs' p10..p90 bands where their records keep samples)\n";
  t.write(out);
  write_missing(c, v, out);
  const std::size_t missing = unexplained_missing(c, v);
  out << plural(static_cast<long long>(c.changes.size()), "figure") << " compared, " << c.regressions()
      << " regressed past the tolerance and the noise";
  if (c.not_judged()) out << ", " << c.not_judged() << " not judged";
  out << "; " << missing << " missing from the new run";
  if (c.missing.size() > missing) out << " (" << c.missing.size() - missing << " more where its budget dropped work)";
  out << ", " << c.only_in_new << " only in the new run";
  if (c.checks_cleared) out << "; " << plural(static_cast<long long>(c.checks_cleared), "check") << " of the base run not raised again";
  out << '\n';
  if (!v.new_run_failed.empty()) {
    out << "The new run's own verdict failed:\n";
    for (const auto& reason : v.new_run_failed) out << "  " << reason << '\n';
  }
  if (!fails) {
    out << "Compare: PASS\n";
    return;
  }
  std::string why;
  const auto add = [&](const std::string& part) { why += (why.empty() ? "" : "; ") + part; };
  if (c.regressions()) add(std::to_string(c.regressions()) + " regressed");
  if (missing > 0 && !v.allow_missing) add(std::to_string(missing) + " missing from the new run");
  if (!v.new_run_failed.empty()) add("the new run's own verdict failed");
  out << "Compare: FAIL (" << why << ")\n";
}

}  // namespace gpuscale::results
