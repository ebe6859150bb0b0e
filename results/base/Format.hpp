#pragma once
// Number and id formatting shared by the reporters. Units are converted here and nowhere else.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscale::results {

std::string fixed(double value, int decimals);           // "12.35"; "-" for NaN
// TFLOP/s in a table: three significant digits below 10 (the cpu backend, small shapes), one decimal
// from 10 up: tflops_cell(0.01234) -> "0.0123", tflops_cell(812.34) -> "812.3".
std::string tflops_cell(double tflops);
std::string gib(std::uint64_t bytes, int decimals = 1);  // "139.8" (GiB, no unit)
// A fraction as a percentage: percent(0.123, 0) -> "12%".
std::string percent(double fraction, int decimals);
// Bytes in MiB, no unit: mib(1572864, 1) -> "1.5".
std::string mib(std::uint64_t bytes, int decimals);
template <class T>
std::string or_dash(const std::optional<T>& v) {
  return v ? std::to_string(*v) : std::string("-");
}
// "00000000:19:00.0" and "0000:19:00.0" (NVML's and CUDA's forms) both become "0000:19:00.0".
std::string normalize_pci_bus_id(const std::string& id);
// The shortest decimal text that reads back to the same double: "0.1", "150000000000", "nan".
std::string shortest(double value);
// Bytes with binary prefixes for size axes and tables: 1024 -> "1K", 67108864 -> "64M", 1.5 GiB -> "1.5G".
std::string binary_bytes(double bytes);
// The widest line the console writes outside its tables (a check, a verdict rule): longer text is cut
// there, and the line says which file keeps the rest.
inline constexpr std::size_t kConsoleLineChars = 160;
// The console's one section header: "== Area: what ==", and the note (units, how figures are made) on
// the next line, indented: "== Compute: matmul and conv (per rank) ==\n  TFLOP/s = ...\n".
std::string section_header(std::string_view title, std::string_view note = {});
// A count and its noun, plural unless the count is 1: plural(1, "rank") -> "1 rank", plural(3, "pass",
// "passes") -> "3 passes". Every count a person reads goes through it.
std::string plural(long long count, std::string_view noun, std::string_view nouns = {});
// Comma-joined list of ints, "0,1,2".
std::string join_ints(const std::vector<int>& values);
// Comma-and-space-joined words, "P2P/CUMEM, SHM"; "" for none.
std::string join_words(const std::vector<std::string>& words);

}  // namespace gpuscale::results
