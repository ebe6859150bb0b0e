#include "results/schema/PlanRecord.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "results/base/JsonFields.hpp"

namespace gpuscale::results {
namespace {

constexpr std::array<std::pair<PlannedKind, std::string_view>, 13> kKindNames = {{
    {PlannedKind::env_checks, "env_checks"},
    {PlannedKind::smoke_allreduce, "smoke_allreduce"},
    {PlannedKind::host_copies, "host_copies"},
    {PlannedKind::device_memory, "device_memory"},
    {PlannedKind::compute, "compute"},
    {PlannedKind::burn, "burn"},
    {PlannedKind::sweep, "sweep"},
    {PlannedKind::scaling, "scaling"},
    {PlannedKind::pairs, "pairs"},
    {PlannedKind::isolation, "isolation"},
    {PlannedKind::train, "train"},
    {PlannedKind::dp, "dp"},
    {PlannedKind::train_checks, "train_checks"},
}};

}  // namespace

std::string_view to_string(PlannedKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "env_checks";
}

PlannedKind planned_kind_from_string(std::string_view text) {
  for (const auto& [k, name] : kKindNames)
    if (name == text) return k;
  throw std::invalid_argument("unknown planned item kind '" + std::string(text) + "'");
}

void PlannedKindName::write(nlohmann::json& out, PlannedKind value) { out = to_string(value); }
void PlannedKindName::read(const nlohmann::json& in, PlannedKind& value) {
  value = planned_kind_from_string(in.get<std::string>());
}

GPUSCALE_JSON_FROM_FIELDS(PlannedItem)
GPUSCALE_JSON_FROM_FIELDS(RunPlanRecord)
GPUSCALE_JSON_FROM_FIELDS(CoverageItem)

}  // namespace gpuscale::results
