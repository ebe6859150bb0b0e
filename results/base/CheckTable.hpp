#pragma once
// The check table (results/base/CheckTable.def) as data: for each check id, its severities, category,
// the GPU work it stops, the docs/CHECKS.md section that lists it, when it fires and how to fix it.
// Plain constants, read by the rules (GPU block, fix texts), the checks CSV and tools/check_docs.
#include <span>
#include <string>
#include <string_view>

#include "results/base/Check.hpp"

// A training verification's name is raised as this prefix + name (check_ids::kTrainCheckPrefix). Here,
// not in CheckIds.hpp, so that the table depends on nothing of the ids made from it.
#define GPUSCALE_TRAIN_CHECK_PREFIX "train-"

namespace gpuscale::results {

// What the engineer must fix (CheckTable.def says how each check was filed).
enum class CheckCategory { speed, health, correctness, config };

// The section of docs/CHECKS.md whose generated table lists a check; its name (to_string) is the
// marker's. One per phase of the registry, named as the phase (its own checks), then those of
// CheckSections.def, the checks that are no one phase's.
enum class CheckSection {
#define GPUSCALE_PHASE(name, member, records, json) name,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#define GPUSCALE_CHECK_SECTION(name, marker) name,
#include "results/base/CheckSections.def"
#undef GPUSCALE_CHECK_SECTION
};

// Every section, in the enum's order.
inline constexpr CheckSection kAllCheckSections[] = {
#define GPUSCALE_PHASE(name, member, records, json) CheckSection::name,
#include "results/base/PhaseRegistry.def"
#undef GPUSCALE_PHASE
#define GPUSCALE_CHECK_SECTION(name, marker) CheckSection::name,
#include "results/base/CheckSections.def"
#undef GPUSCALE_CHECK_SECTION
};

struct CheckInfo {
  std::string_view constant;    // "kDuplicateGpu": the check_ids constant
  std::string_view id;          // as raised: training verifications with check_ids::kTrainCheckPrefix
  std::string_view severities;  // "error", "error / warning", ...
  CheckCategory category = CheckCategory::config;
  GpuBlock gpu_block = GpuBlock::none;  // what an error-level finding of env stops
  bool judges_speed = false;
  bool baseline = false;
  bool retired = false;  // no rule raises it any more (fires_when says since when)
  CheckSection section = CheckSection::env;
  std::string_view fires_when;  // training verifications: when the proof passes
  std::string_view fix;
};

// Every entry, in the table's order.
std::span<const CheckInfo> check_table();
// The entry of `id`, or nullptr.
const CheckInfo* find_check(std::string_view id);

std::string_view to_string(CheckCategory c);
std::string_view to_string(CheckSection s);

// The fix of a table id, for a rule's message; throws std::out_of_range for an id not in the table.
std::string fix_text(std::string_view id);
// What an env finding of `id` at `severity` stops: the table's block at error, none below it.
GpuBlock env_gpu_block(std::string_view id, Severity severity);

}  // namespace gpuscale::results
