#include "results/base/Format.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpuscale::results {

std::string fixed(double value, int decimals) {
  if (std::isnan(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string tflops_cell(double tflops) {
  if (tflops >= 10 || std::isnan(tflops)) return fixed(tflops, 1);
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", tflops);
  return text;
}

std::string gib(std::uint64_t bytes, int decimals) {
  return fixed(static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), decimals);
}

std::string mib(std::uint64_t bytes, int decimals) {
  return fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), decimals);
}

std::string percent(double fraction, int decimals) { return fixed(100 * fraction, decimals) + "%"; }

std::string normalize_pci_bus_id(const std::string& id) {
  std::string lower;
  for (char c : id) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto colon = lower.find(':');
  if (colon == std::string::npos) return lower;
  std::string domain = lower.substr(0, colon);
  // Keep the last four digits of the domain: NVML pads it to eight.
  if (domain.size() > 4) domain = domain.substr(domain.size() - 4);
  while (domain.size() < 4) domain = "0" + domain;
  return domain + lower.substr(colon);
}

std::string shortest(double value) {
  if (std::isnan(value)) return "nan";
  char buf[64];
  // Plain decimals for the range people read (0.0005, 150000000000); exponents outside it.
  const double magnitude = std::fabs(value);
  const bool plain = value == 0 || (magnitude >= 1e-6 && magnitude < 1e15);
  const auto result =
      std::to_chars(buf, buf + sizeof buf, value, plain ? std::chars_format::fixed : std::chars_format::scientific);
  return std::string(buf, result.ptr);
}

std::string binary_bytes(double bytes) {
  static constexpr const char* kSuffixes[] = {"", "K", "M", "G", "T"};
  std::size_t i = 0;
  while (std::fabs(bytes) >= 1024 && i + 1 < sizeof kSuffixes / sizeof kSuffixes[0]) bytes /= 1024, ++i;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g%s", bytes, kSuffixes[i]);
  return buf;
}

std::string join_ints(const std::vector<int>& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(values[i]);
  }
  return s;
}

std::string join_words(const std::vector<std::string>& words) {
  std::string s;
  for (std::size_t i = 0; i < words.size(); ++i) s += (i ? ", " : "") + words[i];
  return s;
}

std::string section_header(std::string_view title, std::string_view note) {
  std::string out = "== " + std::string(title) + " ==\n";
  if (!note.empty()) out += "  " + std::string(note) + "\n";
  return out;
}

std::string plural(long long count, std::string_view noun, std::string_view nouns) {
  std::string text = std::to_string(count) + " ";
  if (count == 1) return text.append(noun);
  return nouns.empty() ? text.append(noun).append("s") : text.append(nouns);
}

}  // namespace gpuscale::results
