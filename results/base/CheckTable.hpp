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

// The section of docs/CHECKS.md whose generated table lists a check; its name is the marker's.
enum class CheckSection {
  environment,
  collectives,
  budget,
  outliers,
  compute,
  burn,
  links,
  floors,
  training_proofs,
  training,
  baseline
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
  CheckSection section = CheckSection::environment;
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
