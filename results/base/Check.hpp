#pragma once
// One finding about the run: an id that tools can match on, how bad it is, which ranks it concerns,
// and a message that says how to fix it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

enum class Severity { info, warning, error };

// Which GPU phases an error-level finding stops. shared_gpu: another process computes on a job's GPU,
// so every figure would be shared with it: the GPU phases are skipped but burn, whose sustained
// figure shows what the sharing costs. all_gpu_work: NCCL or the GPU work cannot run (ranks sharing a
// GPU): every GPU phase is skipped.
enum class GpuBlock { none, shared_gpu, all_gpu_work };

std::string_view to_string(Severity s);
Severity severity_from_string(std::string_view s);  // throws std::invalid_argument

struct Check {
  std::string id;          // stable, kebab-case: "duplicate-gpu", "nccl-version-mismatch", ...
  Severity severity = Severity::info;
  std::vector<int> ranks;  // empty: the whole job
  std::string message;
  GpuBlock blocks_gpu_work = GpuBlock::none;
  // One check stands for every finding of its id and severity (aggregate_findings, judge/Findings.hpp):
  // how many there were, the nodes and the rank pairs they concern, and each finding's own message
  // (empty when there was one: `message` is it).
  int count = 1;
  std::vector<int> nodes{};
  std::vector<std::pair<int, int>> pairs{};  // world ranks, a < b
  std::vector<std::string> details{};
};

// The first error-level check that blocks GPU work at `at_least` or more, or nullptr.
const Check* gpu_work_blocker(const std::vector<Check>& checks, GpuBlock at_least = GpuBlock::shared_gpu);

// Severity as its name; GpuBlock as "shared-gpu" or "all" (runs written before the kinds existed say
// true, read as "all").
struct SeverityName {
  static void write(nlohmann::json& out, Severity value);
  static void read(const nlohmann::json& in, Severity& value);
};
struct GpuBlockName {
  static void write(nlohmann::json& out, GpuBlock value);
  static void read(const nlohmann::json& in, GpuBlock& value);
};

constexpr auto json_fields(const Check*) {
  using T = Check;
  return fields(field("id", &T::id), field("severity", &T::severity).as<SeverityName>(), field("ranks", &T::ranks),
                field("message", &T::message),
                field("blocks_gpu_work", &T::blocks_gpu_work).as<GpuBlockName>().omitted_when_default(),
                field("count", &T::count).optional(), field("nodes", &T::nodes).optional(),
                field("pairs", &T::pairs).omitted_when_default(), field("details", &T::details).omitted_when_default());
}

void to_json(nlohmann::json& j, const Check& c);
void from_json(const nlohmann::json& j, Check& c);

}  // namespace gpuscale::results
