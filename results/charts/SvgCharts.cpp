#include "results/charts/SvgCharts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "results/base/Markup.hpp"
#include "results/base/ReadableNumber.hpp"
#include "results/charts/SvgCanvas.hpp"

namespace gpuscale::results::svg {

using markup::escape;
namespace {

constexpr double kPlotRight = kWidth - kRight;
constexpr double kPlotBottom = kHeight - kBottom;

Scale y_scale(double max) {
  const auto ticks = linear_ticks(max);
  return Scale{0, ticks.back(), kPlotBottom, kTop, false};
}

std::string point_title(const ChartFrame& frame, const std::string& series, double x, double y) {
  return "<title>" + escape(series) + ": " + escape(readable_with_unit(x, frame.x_unit)) + " -> " +
         escape(readable_with_unit(y, frame.y_unit)) + "</title>";
}

std::string bar_rect(const std::string& cls, double left, double top, double width, double height,
                     const std::string& fill, bool marked, const std::string& title) {
  return "<rect class=\"" + cls + std::string(marked ? " outlier" : "") + "\" x=\"" + num(left) + "\" y=\"" + num(top) +
         "\" width=\"" + num(width) + "\" height=\"" + num(height) + "\" fill=\"" + fill + "\"" +
         (marked ? " stroke=\"#d00\" stroke-width=\"3\"" : "") + "><title>" + escape(title) + "</title></rect>";
}

// Series that share one x value: a bar per series in its colour, the value under them.
std::string one_x_bars(const ChartFrame& frame, const std::vector<Series>& series, double x_value) {
  std::vector<std::string> names;
  double y_hi = 0;
  for (const auto& s : series) {
    names.push_back(s.name);
    for (const auto& p : s.points) y_hi = std::max(y_hi, p.y);
  }
  std::string s = open(frame.id, "chart-bar", frame.title, names);
  const Scale y = y_scale(y_hi);
  s += y_axis(y, linear_ticks(y_hi), frame.y_label, frame.y_unit);
  const double slot = (kPlotRight - kLeft) / static_cast<double>(series.size());
  const double width = std::max(2.0, std::min(60.0, slot * 0.7));
  s += "<g class=\"axis x-axis\"><line x1=\"" + num(kLeft) + "\" y1=\"" + num(kPlotBottom) + "\" x2=\"" +
       num(kPlotRight) + "\" y2=\"" + num(kPlotBottom) + "\"/><text x=\"" + num((kLeft + kPlotRight) / 2) + "\" y=\"" +
       num(kPlotBottom + 16) + "\" text-anchor=\"middle\">" + escape(readable(x_value, frame.x_unit)) +
       "</text><text class=\"axis-label\" x=\"" + num((kLeft + kPlotRight) / 2) + "\" y=\"" + num(kHeight - 12) +
       "\" text-anchor=\"middle\">" + escape(axis_title(frame.x_label, frame.x_unit)) + "</text></g>";
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double left = kLeft + slot * static_cast<double>(i) + (slot - width) / 2;
    for (const auto& p : series[i].points)
      s += "<g class=\"series\" data-name=\"" + escape(series[i].name) + "\">" +
           bar_rect("bar", left, y(p.y), width, y(0) - y(p.y), colour(i, series.size()), p.marked,
                    series[i].name + ": " + readable_with_unit(p.x, frame.x_unit) + " -> " +
                        readable_with_unit(p.y, frame.y_unit)) +
           "</g>";
  }
  return s + legend(names) + close();
}

}  // namespace

std::string line_chart(const ChartFrame& frame, const std::vector<Series>& series, bool log_x) {
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_hi = 0;
  std::vector<std::string> names;
  for (const auto& s : series) {
    names.push_back(s.name);
    for (const auto& p : s.points) {
      if (log_x && !(p.x > 0)) continue;
      x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x), y_hi = std::max(y_hi, p.y);
    }
  }
  if (x_hi >= x_lo && x_hi == x_lo) return one_x_bars(frame, series, x_lo);
  std::string s = open(frame.id, "chart-line", frame.title, names);
  if (!(x_hi >= x_lo)) return s + empty_note("no data") + close();
  if (!log_x) x_lo = std::min(0.0, x_lo);
  const Scale x{x_lo, x_hi, kLeft + 10, kPlotRight - 10, log_x};
  const Scale y = y_scale(y_hi);
  s += y_axis(y, linear_ticks(y_hi), frame.y_label, frame.y_unit);
  s += x_axis(x, log_x ? log2_ticks(x_lo, x_hi) : linear_ticks(x_hi), frame.x_label, frame.x_unit);
  for (std::size_t i = 0; i < series.size(); ++i) {
    auto points = series[i].points;
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    std::string path, dots;
    for (const auto& p : points) {
      if (log_x && !(p.x > 0)) continue;
      path += (path.empty() ? "" : " ") + num(x(p.x)) + "," + num(y(p.y));
      dots += "<circle class=\"point" + std::string(p.marked ? " outlier" : "") + "\" cx=\"" + num(x(p.x)) +
              "\" cy=\"" + num(y(p.y)) + "\" r=\"" + (p.marked ? "5" : "3") + "\" fill=\"" + colour(i, series.size()) + "\">" +
              point_title(frame, series[i].name, p.x, p.y) + "</circle>";
    }
    s += "<g class=\"series\" data-name=\"" + escape(series[i].name) + "\"><polyline fill=\"none\" stroke=\"" +
         colour(i, series.size()) + "\" stroke-width=\"2\" points=\"" + path + "\"/>" + dots + "</g>";
  }
  return s + legend(names) + close();
}

std::string stacked_bar_chart(const ChartFrame& frame, const std::vector<std::string>& segment_names,
                              const std::vector<Bar>& bars) {
  std::string s = open(frame.id, segment_names.size() > 1 ? "chart-stacked" : "chart-bar", frame.title, segment_names);
  if (bars.empty()) return s + empty_note("no data") + close();
  double y_hi = 0;
  for (const auto& b : bars) {
    double total = 0;
    for (double v : b.segments) total += std::isfinite(v) ? v : 0;
    y_hi = std::max(y_hi, total);
  }
  const Scale y = y_scale(y_hi);
  s += y_axis(y, linear_ticks(y_hi), frame.y_label, frame.y_unit);
  const double slot = (kPlotRight - kLeft) / static_cast<double>(bars.size());
  const double width = std::max(2.0, slot * 0.7);
  s += "<g class=\"axis x-axis\"><line x1=\"" + num(kLeft) + "\" y1=\"" + num(kPlotBottom) + "\" x2=\"" +
       num(kPlotRight) + "\" y2=\"" + num(kPlotBottom) + "\"/>";
  const std::size_t label_stride = std::max<std::size_t>(1, bars.size() / 16);
  for (std::size_t i = 0; i < bars.size(); i += label_stride) {
    s += "<text x=\"" + num(kLeft + slot * (static_cast<double>(i) + 0.5)) + "\" y=\"" + num(kPlotBottom + 16) +
         "\" text-anchor=\"middle\">" + escape(bars[i].label) + "</text>";
  }
  s += "<text class=\"axis-label\" x=\"" + num((kLeft + kPlotRight) / 2) + "\" y=\"" + num(kHeight - 12) +
       "\" text-anchor=\"middle\">" + escape(axis_title(frame.x_label, frame.x_unit)) + "</text></g>";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    double base = 0;
    const double left = kLeft + slot * static_cast<double>(i) + (slot - width) / 2;
    for (std::size_t k = 0; k < bars[i].segments.size(); ++k) {
      const double v = std::isfinite(bars[i].segments[k]) ? bars[i].segments[k] : 0;
      const std::string name = k < segment_names.size() ? segment_names[k] : "";
      s += bar_rect("bar", left, y(base + v), width, y(base) - y(base + v), colour(k, segment_names.size()),
                    bars[i].marked,
                    bars[i].label + (name.empty() ? "" : " " + name) + ": " + readable_with_unit(v, frame.y_unit));
      base += v;
    }
  }
  return s + legend(segment_names) + close();
}

std::string bar_chart(const ChartFrame& frame, const std::vector<Bar>& bars) {
  return stacked_bar_chart(frame, {frame.y_label}, bars);
}

std::string heat_map(const ChartFrame& frame, const HeatMatrix& m) {
  std::string s = open(frame.id, "chart-heat", frame.title);
  if (m.rows.empty() || m.columns.empty()) return s + empty_note("no data") + close();
  double hi = 0;
  for (const auto& row : m.values)
    for (double v : row) hi = std::isfinite(v) ? std::max(hi, v) : hi;
  const double cw = (kPlotRight - kLeft) / static_cast<double>(m.columns.size());
  const double ch = (kPlotBottom - kTop) / static_cast<double>(m.rows.size());
  for (std::size_t c = 0; c < m.columns.size(); ++c)
    s += "<text x=\"" + num(kLeft + cw * (static_cast<double>(c) + 0.5)) + "\" y=\"" + num(kPlotBottom + 16) +
         "\" text-anchor=\"middle\">" + escape(m.columns[c]) + "</text>";
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    const double top = kTop + ch * static_cast<double>(r);
    s += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(top + ch / 2 + 4) + "\" text-anchor=\"end\">" +
         escape(m.rows[r]) + "</text>";
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      const double v = r < m.values.size() && c < m.values[r].size() ? m.values[r][c] : std::nan("");
      const double shade = std::isfinite(v) && hi > 0 ? v / hi : -1;
      const std::string fill = shade < 0 ? "#dddddd" : "rgb(" + std::to_string(static_cast<int>(240 - 200 * shade)) +
                                                           "," + std::to_string(static_cast<int>(245 - 150 * shade)) + ",255)";
      const double left = kLeft + cw * static_cast<double>(c);
      s += "<rect class=\"cell\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(cw - 1) +
           "\" height=\"" + num(ch - 1) + "\" fill=\"" + fill + "\"><title>" +
           escape(m.rows[r] + " -> " + m.columns[c] + ": " + readable_with_unit(v, frame.y_unit)) + "</title></rect>";
      if (std::isfinite(v) && cw > 28 && ch > 12)
        s += "<text class=\"cell-value\" x=\"" + num(left + cw / 2) + "\" y=\"" + num(top + ch / 2 + 4) +
             "\" text-anchor=\"middle\">" + escape(readable(v, frame.y_unit)) + "</text>";
    }
  }
  s += "<text class=\"axis-label\" x=\"" + num((kLeft + kPlotRight) / 2) + "\" y=\"" + num(kHeight - 12) +
       "\" text-anchor=\"middle\">" + escape(frame.x_label) + "</text>";
  return s + close();
}

}  // namespace gpuscale::results::svg
