#pragma once
// One measured number in long format: which phase produced it, what it is, the labels that say which
// one (rank, op, bytes, precision, ...), the value in `unit`, and which direction is better. Every
// reporter that compares, charts or tabulates numbers (CSV, HTML, compare, --expect) reads figures, so
// a phase only has to flatten its records once.
//
// Extending: a phase whose records live in RunReport provides
//   void append_figures(const TheirRecords&, std::vector<Figure>&);
// and adds one line to flatten() in RunFigures.cpp. Metric and label names that the charts and the
// built-in verdict rules look for are in results/base/FigureNames.hpp.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

enum class Better { higher, lower, none };

std::string_view to_string(Better b);
Better better_from_string(std::string_view s);  // throws std::invalid_argument

using Labels = std::map<std::string, std::string>;  // ordered, so every output lists them alike

struct Figure {
  std::string phase;   // "env", "checks", "collectives", "compute", "train"
  std::string metric;  // snake_case, e.g. "busbw", "smoke_allreduce_time"
  Labels labels;
  double value = 0;
  std::string unit;    // "s", "B", "GB/s", "TFLOP/s", "MHz", "C", "W", "count", "ratio"
  Better better = Better::none;
  // How far the value can be trusted, where its record knows (compare and --baseline read these:
  // results/base/FigureNoise.hpp). Not part of the figure's JSON or CSV.
  double spread = 0;        // half the width of the p10..p90 band of the samples behind the value, in
                            // `unit` (for a derived figure, the band carried over); 0: no samples kept
  double op_time_s = 0;     // the median time of the one timed operation behind the value; 0: unknown
  bool local_copy = false;  // the speed of a collective over one rank: a copy in its own memory, no link
  // Its samples agree within a run but not between healthy runs (pageable host copies: the kernel's
  // page handling moves them by a third from run to run): two runs cannot judge it, a baseline's
  // spread over runs can.
  bool varies_between_runs = false;
  // Measured while another process computed on its GPU (the record's beside_tenant mark): not the
  // GPU's own figure. Charts and the speed rules (stragglers, outliers, link use) leave it out.
  bool beside_tenant = false;
  // The judge found it under its GPU model's floor (the record's under_floor marks): what the console
  // summary marks "UNDER FLOOR". Not part of the figure's JSON or CSV (the record's marks are).
  bool under_floor = false;
};

// Sets beside_tenant on figures[from..] when `beside` (a record's mark on the figures it just added).
void mark_beside_tenant(std::vector<Figure>& figures, std::size_t from, bool beside);

// "op=allreduce;rank=0": labels in key order, the form CSV and compare print.
std::string labels_text(const Labels& labels);
// phase/metric/labels: the key two runs' figures are matched by.
std::string figure_key(const Figure& f);
// True when every (key, value) of `filter` is among f's labels.
bool labels_match(const Figure& f, const Labels& filter);
// The label's value, or "" when absent.
std::string label_or_empty(const Figure& f, const std::string& key);

// Better as its name (to_string / better_from_string).
struct BetterName {
  static void write(nlohmann::json& out, Better value);
  static void read(const nlohmann::json& in, Better& value);
};

constexpr auto json_fields(const Figure*) {
  using T = Figure;
  return fields(field("phase", &T::phase), field("metric", &T::metric), field("labels", &T::labels),
                field("value", &T::value), field("unit", &T::unit), field("better", &T::better).as<BetterName>(),
                field("beside_tenant", &T::beside_tenant).omitted_when_default());
}

void to_json(nlohmann::json& j, const Figure& f);
void from_json(const nlohmann::json& j, Figure& f);

}  // namespace gpuscale::results
