#pragma once
// Small helpers for reading a command's own options: shared by the phase plans.
#include <algorithm>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "harness/Error.hpp"

namespace gpuscale::launch {

// The option's value, or `fallback` when absent (also when the command lacks the option: `run`).
// A value of the wrong type is a harness::UsageError naming the option.
template <class T>
T option(const cxxopts::ParseResult& r, const char* name, T fallback) {
  try {
    return r.count(name) ? r[name].as<T>() : fallback;
  } catch (const cxxopts::exceptions::exception& e) {
    throw harness::UsageError(std::string("--") + name + ": " + e.what());
  }
}

// --straggler-threshold's default, for compute and burn alike: a GPU slower than the median GPU by
// more than this fraction is flagged.
inline constexpr double kDefaultStragglerThreshold = 0.10;

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
