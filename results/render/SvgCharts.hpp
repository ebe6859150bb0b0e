#pragma once
// Inline SVG charts for the HTML report: each returns one <svg id="ID" class="chart KIND"> element,
// self-contained (no script, no external style). Marked points and bars get class "outlier".
// Kinds: chart-line, chart-bar, chart-stacked, chart-heat.
#include <string>
#include <vector>

namespace gpuscale::results::svg {

struct ChartFrame {
  std::string id;     // unique in the page
  std::string title;
  std::string x_label, y_label;  // with units, e.g. "message size (B)"
  bool x_in_bytes = false;       // x tick labels with binary prefixes (1K, 64M) instead of SI
};

struct Point {
  double x = 0, y = 0;
  bool marked = false;
};

struct Series {
  std::string name;
  std::vector<Point> points;  // drawn in x order
};

struct Bar {
  std::string label;
  std::vector<double> segments;  // stacked bottom to top; one for a plain bar
  bool marked = false;
};

struct HeatMatrix {
  std::vector<std::string> rows, columns;
  std::vector<std::vector<double>> values;  // [row][column]; NaN: no value (drawn grey)
};

// x on a log2 axis when log_x (sizes, GPU counts); x must then be > 0.
std::string line_chart(const ChartFrame& frame, const std::vector<Series>& series, bool log_x);
std::string bar_chart(const ChartFrame& frame, const std::vector<Bar>& bars);
std::string stacked_bar_chart(const ChartFrame& frame, const std::vector<std::string>& segment_names,
                              const std::vector<Bar>& bars);
// Darker is higher; each cell shows its value.
std::string heat_map(const ChartFrame& frame, const HeatMatrix& matrix);

}  // namespace gpuscale::results::svg
