#include "results/base/ReadableNumber.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace gpuscale::results {

namespace {

std::string plain(double value) {
  char buf[48];
  if (std::fabs(value) >= 1000) std::snprintf(buf, sizeof buf, "%.0f", value);
  else std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}

}  // namespace

std::string readable(double value, std::string_view unit) {
  if (std::isnan(value)) return "-";
  if (unit == "ratio") return plain(100 * value) + "%";
  if (unit == "B") {
    static constexpr const char* kBytes[] = {" B", " KiB", " MiB", " GiB", " TiB"};
    std::size_t i = 0;
    while (std::fabs(value) >= 1024 && i + 1 < std::size(kBytes)) value /= 1024, ++i;
    return plain(value) + kBytes[i];
  }
  if (unit != "s" || value == 0) return plain(value);
  static constexpr struct { double scale; const char* suffix; } kTimes[] = {
      {1, " s"}, {1e-3, " ms"}, {1e-6, " \u00b5s"}, {1e-9, " ns"}};
  for (const auto& t : kTimes)
    if (std::fabs(value) >= t.scale * 0.9995) return plain(value / t.scale) + t.suffix;
  return plain(value / 1e-9) + " ns";
}

std::string readable_unit(std::string_view unit) {
  if (unit == "ratio") return "%";
  if (unit == "s" || unit == "B") return "";
  return std::string(unit);
}

std::string readable_with_unit(double value, std::string_view unit) {
  const auto text = readable(value, unit);
  const auto named = readable_unit(unit);
  if (std::isnan(value) || named.empty() || named == "%" || unit == "count") return text;
  return text + " " + named;
}

}  // namespace gpuscale::results
