#include "results/base/CheckTable.hpp"

#include <array>
#include <stdexcept>

namespace gpuscale::results {
namespace {

// The flags of CheckTable.def's entries.
enum CheckFlag : unsigned { kNone = 0, kJudgesSpeed = 1, kBaseline = 2, kRetired = 4 };

constexpr CheckInfo table_entry(std::string_view constant, std::string_view id, std::string_view severities,
                                CheckCategory category, GpuBlock block, unsigned flags, CheckSection section,
                                std::string_view fires_when, std::string_view fix) {
  return {constant,
          id,
          severities,
          category,
          block,
          (flags & kJudgesSpeed) != 0,
          (flags & kBaseline) != 0,
          (flags & kRetired) != 0,
          section,
          fires_when,
          fix};
}

#define GPUSCALE_CHECK(constant, id, severities, category, block, flags, section, fires_when, fix)               \
  table_entry(#constant, id, severities, CheckCategory::category, GpuBlock::block, flags, CheckSection::section, \
              fires_when, fix),
#define GPUSCALE_TRAIN_CHECK(constant, name, passes_when, fix)                                                         \
  table_entry(#constant, GPUSCALE_TRAIN_CHECK_PREFIX name, "error", CheckCategory::correctness, GpuBlock::none, kNone, \
              CheckSection::training_proofs, passes_when, fix),
constexpr std::array kCheckTable = {
#include "results/base/CheckTable.def"
};
#undef GPUSCALE_CHECK
#undef GPUSCALE_TRAIN_CHECK

}  // namespace

std::span<const CheckInfo> check_table() { return kCheckTable; }

const CheckInfo* find_check(std::string_view id) {
  for (const auto& c : kCheckTable)
    if (c.id == id) return &c;
  return nullptr;
}

std::string_view to_string(CheckCategory c) {
  switch (c) {
    case CheckCategory::speed:
      return "speed";
    case CheckCategory::health:
      return "health";
    case CheckCategory::correctness:
      return "correctness";
    case CheckCategory::config:
      return "config";
  }
  return "?";
}

std::string_view to_string(CheckSection s) {
  switch (s) {
#define GPUSCALE_PHASE(name, member, records, json) \
  case CheckSection::name:                          \
    return #name;
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#define GPUSCALE_CHECK_SECTION(name, marker) \
  case CheckSection::name:                   \
    return marker;
#include "results/base/CheckSections.def"
#undef GPUSCALE_CHECK_SECTION
  }
  return "?";
}

std::string fix_text(std::string_view id) {
  const auto* c = find_check(id);
  if (!c) throw std::out_of_range("check id '" + std::string(id) + "' is not in the check table");
  return std::string(c->fix);
}

GpuBlock env_gpu_block(std::string_view id, Severity severity) {
  const auto* c = find_check(id);
  return c && severity == Severity::error ? c->gpu_block : GpuBlock::none;
}

}  // namespace gpuscale::results
