// gpu-in-use for the processes that appeared on a job's GPU during a phase (results/MidRunTenancy.hpp):
// judged after each phase's own families, so a run's findings read in the order they were found.
#include <algorithm>

#include "judge/Rule.hpp"
#include "results/MidRunTenancy.hpp"

namespace gpuscale::judge {
namespace {

bool of_a_phase(const results::MidRunTenant& t) {
  const auto families = all_rule_families();
  return std::any_of(families.begin(), families.end(), [&](const auto* f) { return f->phase == t.phase; });
}

Judged tenancy(const RunReport& report, const RuleContext& context) {
  std::vector<results::MidRunTenant> during;
  for (const auto& t : report.tenants)
    // The whole-run pass (no phase) takes those that no phase pass took.
    if (context.phase.empty() ? !of_a_phase(t) : t.phase == context.phase) during.push_back(t);
  Judged judged;
  results::midrun_tenancy_checks(during, judged.checks);
  return judged;
}

}  // namespace

extern const RuleFamily kTenancyChecks{
    "tenancy", "*", "tenants[]", "gpu-in-use error (computes) or warning (holds memory)", GpuBlock::none, tenancy};

}  // namespace gpuscale::judge
