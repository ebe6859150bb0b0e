#pragma once
// Low-level pieces of the inline SVG charts: scales, ticks, axes, legend, palette. Plain
// strings; the chart functions in SvgCharts.hpp put them together.
#include <cstddef>
#include <string>
#include <vector>

namespace gpuscale::results::svg {

inline constexpr double kWidth = 680, kHeight = 340;
inline constexpr double kLeft = 70, kRight = 170, kTop = 34, kBottom = 54;  // margins, legend on the right

std::string num(double value);                // coordinates: one decimal
// The colour of the index-th of `count` series: a fixed palette, distinguishable on screen and paper, for
// up to kPaletteSize series; past it `count` hues evenly apart, so that no two series of a chart share one.
inline constexpr std::size_t kPaletteSize = 10;
std::string colour(std::size_t index, std::size_t count);

// Maps data [lo, hi] to pixels [px_lo, px_hi], linearly or by log2.
struct Scale {
  double lo = 0, hi = 1, px_lo = 0, px_hi = 1;
  bool log = false;
  double operator()(double value) const;
};

// ~5 round ticks (1, 2, 5 x 10^n) from 0 up to at least max.
std::vector<double> linear_ticks(double max);
// Powers of two from lo to hi, thinned to at most 9.
std::vector<double> log2_ticks(double lo, double hi);

// The plot keeps kWidth's layout; the svg widens (up to kMaxWidth) so that the longest legend name fits.
inline constexpr double kMaxWidth = 1040;
std::string open(const std::string& id, const std::string& kind, const std::string& title,
                 const std::vector<std::string>& legend_names = {});
std::string close();
// An axis title: the label and, where its ticks do not say it, the unit as the tables' headers name it
// ("busbw (GB/s)", "step time", "efficiency (%)").
std::string axis_title(const std::string& label, const std::string& unit);
// Axis lines, tick marks, tick labels in `unit` as the tables write it (results/base/ReadableNumber.hpp:
// "500 µs", "64 MiB", "80%", "4220") and the axis titles.
std::string x_axis(const Scale& x, const std::vector<double>& ticks, const std::string& label, const std::string& unit);
std::string y_axis(const Scale& y, const std::vector<double>& ticks, const std::string& label, const std::string& unit);
// One swatch and name per entry, top right, coloured as colour(i, names.size()).
std::string legend(const std::vector<std::string>& names);
// A note in the plot area where there is nothing to draw.
std::string empty_note(const std::string& text);

}  // namespace gpuscale::results::svg
