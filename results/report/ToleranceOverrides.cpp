#include "results/report/ToleranceOverrides.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "results/report/FigureVocabulary.hpp"
#include "results/schema/InputFile.hpp"

namespace gpuscale::results {

void check_tolerance_override(const std::string& key, double fraction) {
  // METRIC, PHASE/METRIC or PHASE/METRIC/LABELS, labels as labels_text writes them (k=v;k=v; a value
  // may hold '/', so they are the rest of the key).
  const auto slash = key.find('/');
  const auto second = slash == std::string::npos ? slash : key.find('/', slash + 1);
  const std::string phase = slash == std::string::npos ? "" : key.substr(0, slash);
  const std::string metric = slash == std::string::npos ? key : key.substr(slash + 1, second - slash - 1);
  std::vector<std::string> label_keys;
  if (second != std::string::npos) {
    const std::string labels = key.substr(second + 1);
    for (std::size_t start = 0; start < labels.size();) {
      const auto end = std::min(labels.find(';', start), labels.size());
      const std::string pair = labels.substr(start, end - start);
      const auto eq = pair.find('=');
      if (eq == std::string::npos || eq == 0)
        refuse_input("baseline tolerance '" + key + "': labels are KEY=VALUE;KEY=VALUE, as compare prints them");
      label_keys.push_back(pair.substr(0, eq));
      start = end + 1;
    }
  }
  if (const auto why = names_nothing(phase, metric, label_keys); !why.empty())
    refuse_input("baseline tolerance '" + key + "': " + why +
                 " (KEY is METRIC, PHASE/METRIC or PHASE/METRIC/LABELS; figures in docs/REPORT.md)");
  if (!std::isfinite(fraction) || fraction < 0)
    refuse_input("baseline tolerance '" + key + "' must be a fraction >= 0, e.g. 0.05");
}

void add_tolerance_override(const std::string& text, ToleranceOverrides& overrides) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    refuse_input("--baseline-tolerance expects KEY=FRACTION, e.g. compute/tflops=0.08, got '" + text + "'");
  const std::string key = text.substr(0, eq), value = text.substr(eq + 1);
  char* end = nullptr;
  const double fraction = std::strtod(value.c_str(), &end);
  if (*end != '\0') refuse_input("--baseline-tolerance " + text + ": '" + value + "' is not a number");
  check_tolerance_override(key, fraction);
  overrides[key] = fraction;
}

}  // namespace gpuscale::results
