#pragma once
// One line of the verdict's PASS/WARN/FAIL/SKIP list: a built-in rule or a user threshold, and what it
// found. SKIP: the rule judges something this run does not measure by its plan or shape (a size the
// profile never measures, a spread between GPUs on one GPU); it never fails the verdict.
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

enum class RuleResult { pass, warn, fail, skip };

std::string_view to_string(RuleResult r);  // "PASS", "WARN", "FAIL", "SKIP"
RuleResult rule_result_from_string(std::string_view s);  // throws std::invalid_argument

struct RuleOutcome {
  std::string name;    // "no error checks", "min busbw op=allreduce >= 300 GB/s", ...
  RuleResult result = RuleResult::pass;
  std::string detail;  // what was found: the offending figure and its value, or "3 figures ok"
};

struct RuleResultName {
  static void write(nlohmann::json& out, RuleResult value);
  static void read(const nlohmann::json& in, RuleResult& value);
};

constexpr auto json_fields(const RuleOutcome*) {
  return fields(field("name", &RuleOutcome::name), field("result", &RuleOutcome::result).as<RuleResultName>(),
                field("detail", &RuleOutcome::detail));
}

void to_json(nlohmann::json& j, const RuleOutcome& r);
void from_json(const nlohmann::json& j, RuleOutcome& r);

}  // namespace gpuscale::results
