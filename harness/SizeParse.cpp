#include "harness/SizeParse.hpp"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

#include "harness/Error.hpp"

namespace gpuscale::harness {
namespace {

constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::int64_t>::max();

// Printable for a one-line message: control characters and very long inputs are cut.
std::string quoted(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, 40)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  if (text.size() > 40) out += "...";
  return "'" + out + "'";
}

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw UsageError(std::string(option) + " " + quoted(text) + ": " + std::string(why) +
                   " (a byte size such as 8, 64K, 16M, 1G or 512MiB)");
}

// The multiplier a suffix stands for ("", "B", "K", "KB", "KiB", ... any case); 0 when unknown.
std::uint64_t multiplier(std::string_view suffix) {
  std::string s;
  for (const char c : suffix) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.empty() || s == "b") return 1;
  static constexpr std::string_view kLetters = "kmgt";
  const auto k = kLetters.find(s.front());
  if (k == std::string_view::npos) return 0;
  const std::string_view tail = std::string_view(s).substr(1);
  if (!(tail.empty() || tail == "b" || tail == "ib")) return 0;
  return 1ull << (10 * (k + 1));
}

}  // namespace

std::uint64_t parse_size_bytes(std::string_view text, std::string_view option, bool allow_zero) {
  if (text.empty()) reject(option, text, "empty");
  if (text.front() == '-') reject(option, text, "negative");
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (kMaxBytes - digit) / 10) reject(option, text, "too large");
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) reject(option, text, "not a number");
  const std::uint64_t scale = multiplier(text.substr(i));
  if (scale == 0) reject(option, text, "unknown suffix");
  if (value > kMaxBytes / scale) reject(option, text, "too large");
  value *= scale;
  if (value == 0 && !allow_zero) reject(option, text, "must be more than zero");
  return value;
}

std::vector<std::uint64_t> parse_size_list(std::string_view text, std::string_view option, bool allow_zero) {
  if (text.empty()) reject(option, text, "empty list");
  std::vector<std::uint64_t> out;
  for (;;) {
    const auto comma = text.find(',');
    out.push_back(parse_size_bytes(text.substr(0, comma), option, allow_zero));
    if (comma == std::string_view::npos) return out;
    text = text.substr(comma + 1);
  }
}

}  // namespace gpuscale::harness
