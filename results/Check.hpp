#pragma once
// One finding about the run: an id that tools can match on, how bad it is, which ranks it concerns,
// and a message that says how to fix it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpuscale::results {

enum class Severity { info, warning, error };

std::string_view to_string(Severity s);
Severity severity_from_string(std::string_view s);  // throws std::invalid_argument

struct Check {
  std::string id;          // stable, kebab-case: "duplicate-gpu", "nccl-version-mismatch", ...
  Severity severity = Severity::info;
  std::vector<int> ranks;  // empty: the whole job
  std::string message;
  // The finding makes NCCL or the GPU work impossible or meaningless (ranks sharing a GPU, another
  // process computing on one): the phases after env are skipped with this check as the reason.
  bool blocks_gpu_work = false;
  // One check stands for every finding of its id and severity (aggregate_findings, Findings.hpp):
  // how many there were, the nodes and the rank pairs they concern, and each finding's own message
  // (empty when there was one: `message` is it).
  int count = 1;
  std::vector<int> nodes{};
  std::vector<std::pair<int, int>> pairs{};  // world ranks, a < b
  std::vector<std::string> details{};
};

// The first error-level check that blocks GPU work, or nullptr.
const Check* gpu_work_blocker(const std::vector<Check>& checks);

void to_json(nlohmann::json& j, const Check& c);
void from_json(const nlohmann::json& j, Check& c);

}  // namespace gpuscale::results
