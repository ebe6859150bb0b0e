#include "launch/FigureSeam.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "harness/Error.hpp"

namespace gpuscale::launch {
namespace {

constexpr char kVariable[] = "GPUSCALE_TEST_LOWER_FIGURE";

struct Selection {
  std::string phase, metric;
  results::Labels labels;
};

[[noreturn]] void bad(const std::string& value, const std::string& why) {
  throw harness::UsageError(std::string(kVariable) + ": expected PHASE/METRIC[/LABEL=VALUE;...], got '" + value +
                            "' (" + why + ")");
}

std::optional<Selection> selection_from_env() {
  const char* set = std::getenv(kVariable);
  if (!set || !*set) return std::nullopt;
  const std::string value = set;
  Selection s;
  const auto first = value.find('/');
  if (first == std::string::npos || first == 0) bad(value, "no phase");
  s.phase = value.substr(0, first);
  const auto second = value.find('/', first + 1);
  s.metric = value.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  if (s.metric.empty()) bad(value, "no metric");
  if (second == std::string::npos) return s;
  std::string::size_type start = second + 1;
  while (start <= value.size()) {
    const auto end = std::min(value.find(';', start), value.size());
    const std::string item = value.substr(start, end - start);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) bad(value, "label '" + item + "' is not LABEL=VALUE");
    s.labels[item.substr(0, eq)] = item.substr(eq + 1);
    start = end + 1;
  }
  return s;
}

}  // namespace

void check_figure_seam() { selection_from_env(); }

void lower_figures_if_requested(std::vector<results::Figure>& figures) {
  const auto selection = selection_from_env();
  if (!selection) return;
  for (auto& f : figures)
    if (f.phase == selection->phase && f.metric == selection->metric && results::labels_match(f, selection->labels))
      f.value *= kTestLoweredFraction;
}

}  // namespace gpuscale::launch
