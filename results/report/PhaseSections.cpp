#include "results/report/PhaseSections.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "results/base/FigureNames.hpp"
#include "results/base/Format.hpp"
#include "results/base/Markup.hpp"
#include "results/base/ReadableNumber.hpp"
#include "results/base/Statistics.hpp"
#include "results/base/Table.hpp"
#include "results/charts/SvgCanvas.hpp"
#include "results/views/PhaseView.hpp"

namespace gpuscale::results {
namespace {

using markup::escape;

// Each phase's section (its view's title), in the registry's order, then the projection's.
std::vector<std::pair<std::string_view, std::string_view>> section_titles() {
  std::vector<std::pair<std::string_view, std::string_view>> titles;
  for (const auto& view : phase_views()) titles.emplace_back(view.name, view.title);
  titles.emplace_back(names::kProjection, "Projection to the job's size");
  return titles;
}

std::string words(std::string name) {
  for (auto& c : name)
    if (c == '_') c = ' ';
  return name;
}

// One metric's values in one row: each rank's, or the one value of a figure without a rank; marked
// when one of them was measured beside another process on its GPU.
struct Cell {
  std::vector<double> values;
  bool beside_tenant = false;
  bool no_bus = false;  // a bus bandwidth over one rank (measures_no_bus): not measured
};

std::string cell_text(const Cell& cell, const std::string& unit) {
  const auto& values = cell.values;
  const std::string mark = cell.beside_tenant ? std::string(" ") + kBesideTenantMark : "";
  if (cell.no_bus) return "-";
  if (values.size() == 1) return readable(values.front(), unit) + mark;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return readable(median(values), unit) + " [" + readable(*lo, unit) + " - " + readable(*hi, unit) + "]" + mark;
}

std::string header_text(const std::string& metric, const std::string& unit) {
  const auto shown = readable_unit(unit);
  return words(metric) + (shown.empty() ? "" : " (" + shown + ")");
}

struct Pivot {
  std::vector<std::string> metrics;                    // column order: first seen
  std::map<std::string, std::string> units;            // metric -> unit
  std::map<Labels, std::map<std::string, Cell>> rows;  // labels without rank -> metric -> values
  std::vector<Labels> order;                           // rows in first-seen order
  bool per_rank = false;
};

void write_pivot(const std::set<std::string>& keys, const Pivot& p, std::ostream& out) {
  std::vector<std::string> header(keys.begin(), keys.end());
  for (const auto& m : p.metrics) header.push_back(header_text(m, p.units.at(m)));
  Table t(header);
  for (const auto& labels : p.order) {
    std::vector<std::string> row;
    for (const auto& k : keys) row.push_back(labels.count(k) ? labels.at(k) : "-");
    const auto& cells = p.rows.at(labels);
    for (const auto& m : p.metrics) row.push_back(cells.count(m) ? cell_text(cells.at(m), p.units.at(m)) : "-");
    t.add_row(std::move(row));
  }
  std::string caption;
  for (const auto& m : p.metrics) caption += (caption.empty() ? "" : ", ") + words(m);
  std::vector<std::string> by;
  for (const auto& k : keys) by.push_back(words(k));
  if (!by.empty()) caption += " by " + join_words(by);
  if (p.per_rank) caption += "; per GPU: median [min - max]";
  const bool folded = p.order.size() > kOpenRows;
  out << (folded ? "<details><summary>" : "<h3>") << escape(caption) << " (" << p.order.size() << " rows)"
      << (folded ? "</summary>\n" : "</h3>\n");
  t.write_html(out, "results");
  if (folded) out << "</details>\n";
}

void write_tables(const std::vector<const Figure*>& figures, std::ostream& out) {
  std::map<std::set<std::string>, Pivot> pivots;  // label keys without rank -> its table
  std::vector<std::set<std::string>> order;
  for (const auto* f : figures) {
    Labels rest = f->labels;
    const bool ranked = rest.erase(names::kRank) > 0;
    std::set<std::string> keys;
    for (const auto& [k, v] : rest) keys.insert(k);
    auto [it, fresh] = pivots.try_emplace(keys);
    if (fresh) order.push_back(keys);
    auto& p = it->second;
    if (!p.units.count(f->metric)) p.metrics.push_back(f->metric), p.units[f->metric] = f->unit;
    auto [row, new_row] = p.rows.try_emplace(rest);
    if (new_row) p.order.push_back(rest);
    auto& cell = row->second[f->metric];
    cell.values.push_back(f->value);
    cell.beside_tenant = cell.beside_tenant || f->beside_tenant;
    cell.no_bus = cell.no_bus || measures_no_bus(*f);
    p.per_rank = p.per_rank || ranked;
  }
  for (const auto& keys : order) write_pivot(keys, pivots.at(keys), out);
}

// The note under a phase's title where some of its figures were measured beside another process.
std::string beside_tenant_note(const std::vector<const Figure*>& figures) {
  std::size_t marked = 0;
  std::set<int> ranks;
  for (const auto* f : figures) {
    if (!f->beside_tenant) continue;
    ++marked;
    if (const auto rank = label_or_empty(*f, names::kRank); !rank.empty()) ranks.insert(std::stoi(rank));
  }
  if (marked == 0) return "";
  return std::string(kBesideTenantMark) + " " + std::to_string(marked) + " of these " + std::to_string(figures.size()) +
         " figures were measured while another process computed on the GPU" +
         (ranks.empty() ? "" : " (ranks " + join_ints({ranks.begin(), ranks.end()}) + ")") +
         ": they are not the GPUs' own (see gpu-in-use), and are left out of the charts and of the straggler, "
         "outlier and floor rules.";
}

}  // namespace

void write_phase_sections(const std::vector<Figure>& figures, const std::vector<ChartSection>& charts,
                          const std::vector<PhaseNote>& notes, std::ostream& out) {
  for (const auto& [phase, title] : section_titles()) {
    std::vector<const Figure*> own;
    for (const auto& f : figures)
      if (f.phase == phase) own.push_back(&f);
    std::vector<const ChartSection*> drawn;
    for (const auto& c : charts)
      if (c.phase == phase) drawn.push_back(&c);
    if (own.empty() && drawn.empty()) continue;
    out << "<section id=\"phase-" << phase << "\" class=\"phase\"><h2>" << escape(std::string(title)) << "</h2>\n";
    for (const auto& n : notes)
      if (n.phase == phase) out << "<p class=\"meta\">" << escape(n.text) << "</p>\n";
    for (const auto* c : drawn)
      out << "<figure><figcaption>" << escape(c->heading) << "</figcaption>\n" << c->svg
          << (c->note.empty() ? "" : "<p class=\"meta chart-note\">" + escape(c->note) + "</p>") << "</figure>\n";
    if (const auto note = beside_tenant_note(own); !note.empty())
      out << "<p class=\"meta beside-tenant\" id=\"beside-tenant-" << phase << "\">" << escape(note) << "</p>\n";
    write_tables(own, out);
    out << "</section>\n";
  }
}

}  // namespace gpuscale::results
