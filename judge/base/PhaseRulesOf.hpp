#pragma once
// A phase's rules over its own records (judge/PhaseRules.hpp tells where each phase defines them and
// how the judge reads them): what a phase's rule file is written against. Below the phases: it names
// no phase and no RunReport.
#include <string_view>
#include <vector>

#include "judge/base/ItemMeasured.hpp"
#include "judge/base/Judged.hpp"
#include "judge/base/RecordSkips.hpp"
#include "results/base/PlanRecord.hpp"

namespace gpuscale::judge {

struct SharedGpus;  // BesideTenant.hpp

// A phase's rules over its own records: what its family file defines. Every pointer but `judge` may be
// null: the phase has no such part.
template <class Records>
struct PhaseRulesOf {
  std::string_view reads;       // what its family reads, as the JSON names it (RuleFamily::reads)
  std::string_view severities;  // RuleFamily::severities
  GpuBlock stops_gpu_work;      // RuleFamily::stops_gpu_work
  // Its rule family over its records: its findings and their marks.
  Judged (*judge)(const Records& records, const RuleContext& context);
  // The beside_tenant mark of each of its records measured on a GPU that `shared` lists for the phase
  // (the tenancy family's whole-run pass).
  void (*beside_tenant_marks)(const Records& records, const SharedGpus& shared, const RuleContext& context,
                              std::vector<RecordMark>& out);
  // How much of `item`, one of its planned items (item.phase is its name), its records hold; `completed`:
  // the run's phases_completed lists the phase.
  ItemMeasured (*measured)(const Records& records, const results::PlannedItem& item, bool completed);
  // Each of its records, measured or skipped with the reason: a phase that ran and skipped every one
  // measured nothing, which fails the verdict (null: the phase is not judged so).
  void (*count_skips)(const Records& records, RecordSkips& out);
  // What the coverage says of one of its planned items beyond its count (null: the defaults, ItemTraits).
  ItemTraits (*item_traits)(const results::PlannedItem& item);
};

}  // namespace gpuscale::judge
