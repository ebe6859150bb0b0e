#include "results/models/Compare.hpp"

#include <cmath>
#include <limits>
#include <map>

#include "results/render/Format.hpp"
#include "results/render/Table.hpp"

namespace gpuscale::results {
namespace {

// A change from 0 has no percentage: it says which way it went.
std::string signed_change(double change) {
  if (std::isinf(change)) return change > 0 ? "up from 0" : "down from 0";
  if (std::isnan(change)) return "not a number";
  return (change >= 0 ? "+" : "") + fixed(change * 100, 1) + "%";
}

}  // namespace

double relative_change(double base, double latest) {
  if (base == latest) return 0;
  if (base == 0) return latest > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  return (latest - base) / std::fabs(base);
}

bool regressed(Better better, double change, double tolerance) {
  if (std::isnan(change)) return better != Better::none;  // a figure that became NaN is worse
  if (better == Better::higher) return change < -tolerance;
  if (better == Better::lower) return change > tolerance;
  return false;
}

std::size_t Comparison::regressions() const {
  std::size_t n = 0;
  for (const auto& c : changes) n += c.regression ? 1 : 0;
  return n;
}

Comparison compare_figures(const std::vector<Figure>& base, const std::vector<Figure>& latest, double tolerance) {
  Comparison result;
  result.tolerance = tolerance;
  std::map<std::string, const Figure*> by_key;
  for (const auto& f : latest) by_key.emplace(figure_key(f), &f);  // first of duplicates wins
  std::size_t matched = 0;
  for (const auto& b : base) {
    const auto it = by_key.find(figure_key(b));
    if (it == by_key.end() || it->second->unit != b.unit) {
      ++result.only_in_base;
      continue;
    }
    ++matched;
    const double change = relative_change(b.value, it->second->value);
    result.changes.push_back({b, it->second->value, change, regressed(b.better, change, tolerance)});
  }
  result.only_in_new = latest.size() > matched ? latest.size() - matched : 0;
  return result;
}

void write_comparison(const Comparison& c, std::ostream& out) {
  Table t({"", "phase", "metric", "labels", "base", "new", "unit", "change", "better"});
  for (const auto& ch : c.changes) {
    t.add_row({ch.regression ? "REGRESSION" : "", ch.base.phase, ch.base.metric, labels_text(ch.base.labels),
               shortest(ch.base.value), shortest(ch.new_value), ch.base.unit, signed_change(ch.relative_change),
               std::string(to_string(ch.base.better))});
  }
  out << "Comparison (tolerance " << fixed(c.tolerance * 100, 1) << "%)\n";
  t.write(out);
  out << c.changes.size() << " figures compared, " << c.regressions() << " regressed past the tolerance";
  if (c.only_in_base || c.only_in_new)
    out << "; " << c.only_in_base << " only in the base run, " << c.only_in_new << " only in the new run";
  out << '\n' << (c.regressions() ? "Compare: FAIL" : "Compare: PASS") << '\n';
}

}  // namespace gpuscale::results
