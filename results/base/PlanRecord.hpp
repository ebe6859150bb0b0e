#pragma once
// What a command planned to measure, written by launch before the first phase (each phase's
// PhaseSpec::planned lists its part), so that the judge can say, of every planned item, whether it was
// measured, and why not (docs/REPORT.md, "Coverage"): a saved run carries its plan, and `gpuscale
// report` rebuilds the same coverage from it. Plain data.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/RecordFields.hpp"
#include "results/base/RuleOutcome.hpp"

namespace gpuscale::results {

struct PlannedItem {
  std::string phase;
  // What kind of measurement it is, one of its phase's kinds (`planned::` in the phase's record header):
  // how its phase's rules find its records (judge/PhaseRules.hpp, `measured`).
  std::string kind;
  std::string name;                           // how the coverage names it: "allreduce", "ddp mlp bf16 x4 weak"
  std::map<std::string, std::string> labels;  // what picks its records (op, precision, strategy, model, scaling, gpus)
  int count = 1;                              // the sizes, shapes x passes or configurations it plans
  int gpus = 1;                               // the GPUs (ranks) it spans
};

// A phase's figure labels and every value the plan gives them ("bytes" -> the sizes it measures): a
// threshold that names another value names something the run never measures (judge/ThresholdScope.cpp).
using PlannedLabels = std::map<std::string, std::vector<std::string>>;

struct RunPlanRecord {
  std::string profile;              // "quick", "default", "quick-cpu", "default-cpu"
  std::vector<std::string> phases;  // the command's phases, in order
  bool require_complete = false;    // --require-complete: dropped work the job needed fails the verdict
  std::vector<PlannedItem> items;
  std::map<std::string, PlannedLabels> labels;  // by phase; a label not listed may take any value
};

// One planned item, judged: measured (PASS), partly (WARN), not at all (SKIP), or dropped work the job
// needed under --require-complete (FAIL); `reason` says why it is not PASS.
struct CoverageItem {
  std::string phase;
  std::string item;
  RuleResult result = RuleResult::pass;
  std::string reason;
  bool needed = false;  // the job needed it: collectives or DDP over more than one GPU, or a whole phase
};

constexpr auto json_fields(const PlannedItem*) {
  using T = PlannedItem;
  return fields(field("phase", &T::phase), field("kind", &T::kind), field("name", &T::name),
                field("labels", &T::labels), field("count", &T::count), field("gpus", &T::gpus));
}

constexpr auto json_fields(const RunPlanRecord*) {
  using T = RunPlanRecord;
  return fields(field("profile", &T::profile), field("phases", &T::phases),
                field("require_complete", &T::require_complete), field("items", &T::items),
                field("labels", &T::labels));
}

constexpr auto json_fields(const CoverageItem*) {
  using T = CoverageItem;
  return fields(field("phase", &T::phase), field("item", &T::item), field("result", &T::result).as<RuleResultName>(),
                field("reason", &T::reason), field("needed", &T::needed));
}

void to_json(nlohmann::json& j, const PlannedItem& p);
void from_json(const nlohmann::json& j, PlannedItem& p);
void to_json(nlohmann::json& j, const RunPlanRecord& p);
void from_json(const nlohmann::json& j, RunPlanRecord& p);
void to_json(nlohmann::json& j, const CoverageItem& c);
void from_json(const nlohmann::json& j, CoverageItem& c);

}  // namespace gpuscale::results
