#pragma once
// A rule family (docs/ARCHITECTURE.md, "How to add a rule"): a pure function from the records of a
// RunReport to findings (checks) and marks on records (the flags the JSON keeps beside a record's
// figures: a compute straggler, a slow burn, a GPU under its model's floor). No rule writes into a
// record; the judge (Judge.hpp) applies every family's marks in one place. A phase's own family is
// part of its PhaseRules (PhaseRules.hpp), from the phase registry; the cross-phase families are listed in
// RuleRegistry.def.
#include <span>
#include <string_view>
#include <vector>

#include "judge/base/Judged.hpp"
#include "results/base/Figure.hpp"
#include "results/schema/RunReport.hpp"

namespace gpuscale::judge {

using results::RunReport;

// The context of `report`'s rule inputs and ranks, for a family running at `phase`.
RuleContext rule_context(const RunReport& report, std::string_view phase = {},
                         const std::vector<results::Figure>* figures = nullptr);

struct RuleFamily {
  std::string_view name;        // "env", "compute", "tenancy", ...
  // Where it runs: the phase whose records it reads ("env", "links", ...: after that phase's earlier
  // families); "*": once after each phase, for that phase's part; "": after every phase, over the whole
  // run; "figures": over the figures, after the record families.
  std::string_view phase;
  std::string_view reads;       // the RunReport fields it reads, as the JSON names them
  std::string_view severities;  // its ids and their severities (docs/CHECKS.md has the messages)
  GpuBlock stops_gpu_work;      // the most GPU work one of its findings stops
  Judged (*judge)(const RunReport& report, const RuleContext& context);
  // A cross-phase family may complete a phase's own findings with what other phases' records say of
  // them: called with `phase`'s family's checks as the judge gathers them (nullptr: it adds nothing).
  void (*amend)(const RunReport& report, std::string_view phase, std::vector<Check>& checks) = nullptr;
};

// Every family, in the judge's order: each phase's own (PhaseRules.hpp) in the phase registry's order,
// then those of judge/RuleRegistry.def in its order.
std::span<const RuleFamily* const> all_rule_families();
// The family named `name`; throws std::out_of_range for an unknown one.
const RuleFamily& find_rule_family(std::string_view name);

}  // namespace gpuscale::judge
