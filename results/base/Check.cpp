#include "results/base/Check.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

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

void SeverityName::write(nlohmann::json& out, Severity value) { out = to_string(value); }
void SeverityName::read(const nlohmann::json& in, Severity& value) {
  value = severity_from_string(in.get<std::string>());
}

void GpuBlockName::write(nlohmann::json& out, GpuBlock value) {
  out = value == GpuBlock::shared_gpu ? "shared-gpu" : value == GpuBlock::all_gpu_work ? "all" : "none";
}
void GpuBlockName::read(const nlohmann::json& in, GpuBlock& value) {
  value = (in.is_string() && in == "shared-gpu")      ? GpuBlock::shared_gpu
          : (in.is_string() || in == true)            ? GpuBlock::all_gpu_work
                                                       : GpuBlock::none;
}

GPUSCALE_JSON_FROM_FIELDS(Check)

}  // namespace gpuscale::results
