#include "results/Check.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace gpuscale::results {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}

Severity severity_from_string(std::string_view s) {
  if (s == "info") return Severity::info;
  if (s == "warning") return Severity::warning;
  if (s == "error") return Severity::error;
  throw std::invalid_argument("unknown severity '" + std::string(s) + "'");
}

void to_json(nlohmann::json& j, const Check& c) {
  j = {{"id", c.id}, {"severity", to_string(c.severity)}, {"ranks", c.ranks}, {"message", c.message}};
}

void from_json(const nlohmann::json& j, Check& c) {
  j.at("id").get_to(c.id);
  c.severity = severity_from_string(j.at("severity").get<std::string>());
  j.at("ranks").get_to(c.ranks);
  j.at("message").get_to(c.message);
}

}  // namespace gpuscale::results
