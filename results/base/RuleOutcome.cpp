#include "results/base/RuleOutcome.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {

std::string_view to_string(RuleResult r) {
  switch (r) {
    case RuleResult::pass: return "PASS";
    case RuleResult::warn: return "WARN";
    case RuleResult::fail: return "FAIL";
    case RuleResult::skip: return "SKIP";
  }
  return "FAIL";
}

RuleResult rule_result_from_string(std::string_view s) {
  if (s == "PASS") return RuleResult::pass;
  if (s == "WARN") return RuleResult::warn;
  if (s == "FAIL") return RuleResult::fail;
  if (s == "SKIP") return RuleResult::skip;
  throw std::invalid_argument("unknown rule result '" + std::string(s) + "'");
}

void RuleResultName::write(nlohmann::json& out, RuleResult value) { out = to_string(value); }
void RuleResultName::read(const nlohmann::json& in, RuleResult& value) {
  value = rule_result_from_string(in.get<std::string>());
}

GPUSCALE_JSON_FROM_FIELDS(RuleOutcome)

}  // namespace gpuscale::results
