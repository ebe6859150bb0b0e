#include "results/base/Spelling.hpp"

#include <algorithm>
#include <cctype>

namespace gpuscale::results {
namespace {

bool same_letter(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

bool begins(std::string_view text, std::string_view start) {
  return start.size() <= text.size() && std::equal(start.begin(), start.end(), text.begin(), same_letter);
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the usual table: the one two back is what a swap of neighbours reads.
  std::vector<std::size_t> two_back(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = previous[j - 1] + (same_letter(a[i - 1], b[j - 1]) ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
      if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]))
        current[j] = std::min(current[j], two_back[j - 2] + 1);
    }
    std::swap(two_back, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string closest_name(std::string_view given, const std::vector<std::string>& known) {
  if (given.empty()) return "";
  const std::size_t allowed = std::clamp<std::size_t>(given.size() / 3, 1, 3);
  std::string best;
  std::size_t best_distance = allowed + 1;
  bool tie = false;
  for (const auto& name : known) {
    const auto d = edit_distance(given, name);
    if (d < best_distance) best = name, best_distance = d, tie = false;
    else if (d == best_distance && name != best) tie = true;
  }
  if (!best.empty() && !tie) return best;
  if (given.size() < 3) return "";
  std::vector<std::string> begun;
  for (const auto& name : known)
    if (begins(name, given) && std::find(begun.begin(), begun.end(), name) == begun.end()) begun.push_back(name);
  return begun.size() == 1 ? begun.front() : "";
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& known, std::string_view prefix) {
  const auto name = closest_name(given, known);
  return name.empty() ? "" : " (did you mean " + std::string(prefix) + name + "?)";
}

}  // namespace gpuscale::results
