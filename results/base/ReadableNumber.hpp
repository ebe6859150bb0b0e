#pragma once
// Figures as a person writes them in a table cell (the HTML's tables and summary, the console's
// one screen), in place of SI prefixes ("891m" for 89.1%, "22.4m s" for 22.4 ms).
#include <string>
#include <string_view>

namespace gpuscale::results {

// A figure in its own unit: a ratio as a percentage (0.891 -> "89.1%", 0.008 -> "0.8%"), seconds in
// s, ms, µs or ns ("22.4 ms", "20.2 µs"), bytes with binary prefixes ("64 MiB"), anything else with
// three significant digits and no prefix ("55.2", "891", "4270").
std::string readable(double value, std::string_view unit);
// The unit a table column of readable() cells names in its header: "%" for a ratio, "" for seconds
// and bytes (each cell says its own), else `unit` itself.
std::string readable_unit(std::string_view unit);
// readable() with the unit said where the cell does not say it already: "4220 GB/s", "1.5 ms", "80%",
// "64 MiB", "8" (a count). For a chart's tooltips and any text read away from a column header.
std::string readable_with_unit(double value, std::string_view unit);

}  // namespace gpuscale::results
