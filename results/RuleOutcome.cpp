#include "results/RuleOutcome.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace gpuscale::results {

std::string_view to_string(RuleResult r) {
  switch (r) {
    case RuleResult::pass: return "PASS";
    case RuleResult::warn: return "WARN";
    case RuleResult::fail: return "FAIL";
  }
  return "FAIL";
}

RuleResult rule_result_from_string(std::string_view s) {
  if (s == "PASS") return RuleResult::pass;
  if (s == "WARN") return RuleResult::warn;
  if (s == "FAIL") return RuleResult::fail;
  throw std::invalid_argument("unknown rule result '" + std::string(s) + "'");
}

void to_json(nlohmann::json& j, const RuleOutcome& r) {
  j = {{"name", r.name}, {"result", to_string(r.result)}, {"detail", r.detail}};
}

void from_json(const nlohmann::json& j, RuleOutcome& r) {
  j.at("name").get_to(r.name);
  r.result = rule_result_from_string(j.at("result").get<std::string>());
  j.at("detail").get_to(r.detail);
}

}  // namespace gpuscale::results
