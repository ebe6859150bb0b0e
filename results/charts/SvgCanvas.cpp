#include "results/charts/SvgCanvas.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "results/base/Markup.hpp"
#include "results/base/ReadableNumber.hpp"

namespace gpuscale::results::svg {

using markup::escape;

std::string num(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", value);
  return buf;
}

std::string colour(std::size_t index, std::size_t count) {
  static constexpr const char* kPalette[kPaletteSize] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  if (count <= kPaletteSize) return kPalette[index % kPaletteSize];
  // Hues evenly round the wheel; neighbours alternate dark and light so that close hues still part.
  const double hue = 360.0 * static_cast<double>(index % count) / static_cast<double>(count);
  return "hsl(" + num(hue) + ",70%," + (index % 2 ? "58%" : "38%") + ")";
}

double Scale::operator()(double value) const {
  const double a = log ? std::log2(lo) : lo;
  const double b = log ? std::log2(hi) : hi;
  const double v = log ? std::log2(value) : value;
  if (!(b > a)) return (px_lo + px_hi) / 2;
  return px_lo + (v - a) / (b - a) * (px_hi - px_lo);
}

std::vector<double> linear_ticks(double max) {
  if (!(max > 0) || !std::isfinite(max)) return {0, 1};
  const double raw = max / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  for (double t = 0; t < max + step * 0.999; t += step) ticks.push_back(t);
  return ticks;
}

std::vector<double> log2_ticks(double lo, double hi) {
  const int first = static_cast<int>(std::floor(std::log2(lo)));
  const int last = static_cast<int>(std::ceil(std::log2(hi)));
  const int stride = std::max(1, (last - first + 8) / 9);
  std::vector<double> ticks;
  for (int e = first; e <= last; e += stride) ticks.push_back(std::ldexp(1.0, e));
  return ticks;
}

std::string open(const std::string& id, const std::string& kind, const std::string& title,
                 const std::vector<std::string>& legend_names) {
  std::size_t longest = 0;
  for (const auto& name : legend_names) longest = std::max(longest, name.size());
  // 11 px text is ~6.2 px per character; the names start 32 px right of the plot.
  const double width = std::clamp(kWidth - kRight + 40 + 6.2 * static_cast<double>(longest), kWidth, kMaxWidth);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + escape(id) + "\" class=\"chart " + kind +
         "\" width=\"" + num(width) + "\" height=\"" + num(kHeight) + "\" viewBox=\"0 0 " + num(width) + " " +
         num(kHeight) + "\" role=\"img\"><title>" + escape(title) + "</title><text class=\"chart-title\" x=\"" +
         num(kLeft) + "\" y=\"20\">" + escape(title) + "</text>";
}

std::string close() { return "</svg>\n"; }

std::string axis_title(const std::string& label, const std::string& unit) {
  const auto named = readable_unit(unit);
  return named.empty() || unit == "count" ? label : label + " (" + named + ")";
}

std::string x_axis(const Scale& x, const std::vector<double>& ticks, const std::string& label, const std::string& unit) {
  const double y0 = kHeight - kBottom;
  std::string s = "<g class=\"axis x-axis\"><line x1=\"" + num(kLeft) + "\" y1=\"" + num(y0) + "\" x2=\"" +
                  num(kWidth - kRight) + "\" y2=\"" + num(y0) + "\"/>";
  for (double t : ticks) {
    const double px = x(t);
    s += "<line x1=\"" + num(px) + "\" y1=\"" + num(y0) + "\" x2=\"" + num(px) + "\" y2=\"" + num(y0 + 4) +
         "\"/><text x=\"" + num(px) + "\" y=\"" + num(y0 + 16) + "\" text-anchor=\"middle\">" +
         escape(readable(t, unit)) + "</text>";
  }
  return s + "<text class=\"axis-label\" x=\"" + num((kLeft + kWidth - kRight) / 2) + "\" y=\"" +
         num(kHeight - 12) + "\" text-anchor=\"middle\">" + escape(axis_title(label, unit)) + "</text></g>";
}

std::string y_axis(const Scale& y, const std::vector<double>& ticks, const std::string& label, const std::string& unit) {
  std::string s = "<g class=\"axis y-axis\"><line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop) + "\" x2=\"" +
                  num(kLeft) + "\" y2=\"" + num(kHeight - kBottom) + "\"/>";
  for (double t : ticks) {
    const double py = y(t);
    s += "<line class=\"grid\" x1=\"" + num(kLeft) + "\" y1=\"" + num(py) + "\" x2=\"" + num(kWidth - kRight) +
         "\" y2=\"" + num(py) + "\"/><text x=\"" + num(kLeft - 6) + "\" y=\"" + num(py + 4) +
         "\" text-anchor=\"end\">" + escape(readable(t, unit)) + "</text>";
  }
  const double mid = (kTop + kHeight - kBottom) / 2;
  return s + "<text class=\"axis-label\" x=\"16\" y=\"" + num(mid) + "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
         num(mid) + ")\">" + escape(axis_title(label, unit)) + "</text></g>";
}

std::string legend(const std::vector<std::string>& names) {
  std::string s = "<g class=\"legend\">";
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double y = kTop + 4 + 18 * static_cast<double>(i);
    s += "<rect x=\"" + num(kWidth - kRight + 14) + "\" y=\"" + num(y) + "\" width=\"12\" height=\"12\" fill=\"" +
         colour(i, names.size()) + "\"/><text x=\"" + num(kWidth - kRight + 32) + "\" y=\"" + num(y + 10) + "\">" +
         escape(names[i]) + "</text>";
  }
  return s + "</g>";
}

std::string empty_note(const std::string& text) {
  return "<text class=\"empty\" x=\"" + num((kLeft + kWidth - kRight) / 2) + "\" y=\"" + num(kHeight / 2) +
         "\" text-anchor=\"middle\">" + escape(text) + "</text>";
}

}  // namespace gpuscale::results::svg
