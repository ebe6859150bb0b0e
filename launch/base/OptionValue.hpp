#pragma once
// Small helpers for reading a command's own options: shared by the phase plans.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <cxxopts.hpp>

#include "harness/Error.hpp"
#include "harness/SizeParse.hpp"

namespace gpuscale::launch {

// A cxxopts message in the style of ours: ASCII quotes, lower case ("Argument ‘x’ failed to parse" ->
// "argument 'x' failed to parse").
inline std::string usage_text(const cxxopts::exceptions::exception& e) {
  std::string text = e.what();
  for (const std::string_view quote : {"\u2018", "\u2019"})
    for (auto at = text.find(quote); at != std::string::npos; at = text.find(quote, at + 1)) text.replace(at, quote.size(), "'");
  if (text.size() > 1 && std::isupper(static_cast<unsigned char>(text[0])) &&
      std::islower(static_cast<unsigned char>(text[1])))
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// The option's value, or `fallback` when absent (also when the command lacks the option: `run`).
// A value of the wrong type is a harness::UsageError naming the option.
template <class T>
T option(const cxxopts::ParseResult& r, const char* name, T fallback) {
  try {
    return r.count(name) ? r[name].as<T>() : fallback;
  } catch (const cxxopts::exceptions::exception& e) {
    throw harness::UsageError(std::string("--") + name + ": " + usage_text(e));
  }
}

// The option's value when given and within [lo, hi]; nullopt when absent. Out of range, NaN, an
// infinity or the wrong type is a harness::UsageError naming the option and the range: the one place
// a numeric option's bounds are enforced, so that 0, negative, NaN and huge values are refused alike.
template <class T>
std::optional<T> option_within(const cxxopts::ParseResult& r, const char* name, T lo, T hi) {
  if (!r.count(name)) return std::nullopt;
  const T value = option<T>(r, name, lo);
  if (!(value >= lo && value <= hi)) {
    std::ostringstream message;
    message.precision(15);
    message << "--" << name << " " << value << ": must be in " << lo << ".." << hi;
    throw harness::UsageError(message.str());
  }
  return value;
}

// As above with `fallback` when absent (the fallback is the caller's default, not checked).
template <class T>
T option_within(const cxxopts::ParseResult& r, const char* name, T fallback, T lo, T hi) {
  return option_within<T>(r, name, lo, hi).value_or(fallback);
}

// A byte size in the one size syntax (harness::parse_size_bytes), or `fallback` when absent. Zero is
// refused unless the option gives it a meaning (allow_zero, e.g. "0 disables").
inline std::uint64_t size_option(const cxxopts::ParseResult& r, const char* name, std::uint64_t fallback,
                                 bool allow_zero = false) {
  if (!r.count(name)) return fallback;
  return harness::parse_size_bytes(option<std::string>(r, name, ""), "--" + std::string(name), allow_zero);
}

// --straggler-threshold (a common option, launch/Cli.cpp): a positive fraction up to 100, nullopt when
// absent.
inline std::optional<double> straggler_threshold_option(const cxxopts::ParseResult& r) {
  const auto t = option_within<double>(r, "straggler-threshold", 0.0, 100.0);
  if (t && !(*t > 0)) throw harness::UsageError("--straggler-threshold must be a positive fraction (0.10 = 10%)");
  return t;
}

// "a;b;c" -> {"a", "b", "c"}; an empty text gives one empty item.
inline std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(separator, start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace gpuscale::launch
