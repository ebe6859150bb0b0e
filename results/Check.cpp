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

const Check* gpu_work_blocker(const std::vector<Check>& checks, GpuBlock at_least) {
  const auto it = std::find_if(checks.begin(), checks.end(), [&](const Check& c) {
    return c.blocks_gpu_work != GpuBlock::none && c.blocks_gpu_work >= at_least && c.severity == Severity::error;
  });
  return it == checks.end() ? nullptr : &*it;
}

void to_json(nlohmann::json& j, const Check& c) {
  j = {{"id", c.id}, {"severity", to_string(c.severity)}, {"ranks", c.ranks}, {"message", c.message}};
  if (c.blocks_gpu_work == GpuBlock::shared_gpu) j["blocks_gpu_work"] = "shared-gpu";
  if (c.blocks_gpu_work == GpuBlock::all_gpu_work) j["blocks_gpu_work"] = "all";
  j["count"] = c.count;
  j["nodes"] = c.nodes;
  if (!c.pairs.empty()) j["pairs"] = c.pairs;
  if (!c.details.empty()) j["details"] = c.details;
}

void from_json(const nlohmann::json& j, Check& c) {
  j.at("id").get_to(c.id);
  c.severity = severity_from_string(j.at("severity").get<std::string>());
  j.at("ranks").get_to(c.ranks);
  j.at("message").get_to(c.message);
  // Runs written before the kinds existed say true for both.
  if (const auto it = j.find("blocks_gpu_work"); it != j.end())
    c.blocks_gpu_work = (it->is_string() && *it == "shared-gpu") ? GpuBlock::shared_gpu
                        : (it->is_string() || *it == true)   ? GpuBlock::all_gpu_work
                                                              : GpuBlock::none;
  c.count = j.value("count", 1);
  c.nodes = j.value("nodes", std::vector<int>{});
  c.pairs = j.value("pairs", std::vector<std::pair<int, int>>{});
  c.details = j.value("details", std::vector<std::string>{});
}

}  // namespace gpuscale::results
