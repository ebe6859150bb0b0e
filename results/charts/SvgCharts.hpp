#pragma once
// Inline SVG charts for the HTML report: each returns one <svg id="ID" class="chart KIND"> element,
// self-contained (no script, no external style). Marked points and bars get class "outlier" and a red
// outline: the caller marks only what lies on the worse side. Ticks, cells and tooltips are in the
// frame's units as the tables write them (results/base/ReadableNumber.hpp); each series of a chart has
// its own colour (SvgCanvas.hpp's colour()). Kinds: chart-line, chart-bar, chart-stacked, chart-heat.
#include <string>
#include <vector>

namespace gpuscale::results::svg {

struct ChartFrame {
  std::string id;     // unique in the page
  std::string title;
  std::string x_label, y_label;  // in words, without units: "message size", "busbw"
  std::string x_unit, y_unit;    // a Figure's units ("B", "s", "GB/s", "ratio", "count")
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

// x on a log2 axis when log_x (sizes, GPU counts); x must then be > 0. Series that all have one x value
// (one GPU count) are drawn as bars, one per series, over that value: a line needs two.
std::string line_chart(const ChartFrame& frame, const std::vector<Series>& series, bool log_x);
std::string bar_chart(const ChartFrame& frame, const std::vector<Bar>& bars);
std::string stacked_bar_chart(const ChartFrame& frame, const std::vector<std::string>& segment_names,
                              const std::vector<Bar>& bars);
// Darker is higher; each cell shows its value.
std::string heat_map(const ChartFrame& frame, const HeatMatrix& matrix);

}  // namespace gpuscale::results::svg
