#include "results/base/Figure.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/base/FigureNames.hpp"
#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

std::string_view to_string(Better b) {
  switch (b) {
    case Better::higher: return "higher";
    case Better::lower: return "lower";
    case Better::none: return "none";
  }
  return "none";
}

Better better_from_string(std::string_view s) {
  if (s == "higher") return Better::higher;
  if (s == "lower") return Better::lower;
  if (s == "none") return Better::none;
  throw std::invalid_argument("unknown direction '" + std::string(s) + "' (higher, lower or none)");
}

std::string labels_text(const Labels& labels) {
  std::string text;
  for (const auto& [key, value] : labels) text += (text.empty() ? "" : ";") + key + "=" + value;
  return text;
}

void mark_beside_tenant(std::vector<Figure>& figures, std::size_t from, bool beside) {
  if (!beside) return;
  for (auto i = from; i < figures.size(); ++i) figures[i].beside_tenant = true;
}

std::string figure_key(const Figure& f) { return f.phase + "/" + f.metric + "/" + labels_text(f.labels); }

bool labels_match(const Figure& f, const Labels& filter) {
  for (const auto& [key, value] : filter) {
    const auto it = f.labels.find(key);
    if (it == f.labels.end() || it->second != value) return false;
  }
  return true;
}

std::string label_or_empty(const Figure& f, const std::string& key) {
  const auto it = f.labels.find(key);
  return it == f.labels.end() ? std::string() : it->second;
}

void BetterName::write(nlohmann::json& out, Better value) { out = to_string(value); }
void BetterName::read(const nlohmann::json& in, Better& value) { value = better_from_string(in.get<std::string>()); }

GPUSCALE_JSON_FROM_FIELDS(Figure)

namespace names {

bool is_known_metric(std::string_view name) {
#define GPUSCALE_MATCH_METRIC(constant, text, what) \
  if (name == constant) return true;
  GPUSCALE_METRICS(GPUSCALE_MATCH_METRIC)
#undef GPUSCALE_MATCH_METRIC
  return false;
}

bool can_be_negative(std::string_view metric) {
  for (const char* name : {kFitAlpha, kFitBeta, kProjectedTime, kProjectedBusBw, kProjectedStepTime,
                           kProjectedSamplesPerS, kExposedCommTime, kOverlap, kTemperature})
    if (metric == name) return true;
  return false;
}

}  // namespace names

}  // namespace gpuscale::results
