// gpu-in-use for the processes that appeared on a job's GPU during a phase (results/schema/MidRunTenancy.hpp):
// judged after each phase's own families, so a run's findings read in the order they were found.
#include "judge/TenancyChecks.hpp"

#include <algorithm>

#include "judge/Rule.hpp"
#include "results/render/Format.hpp"
#include "results/schema/CheckIds.hpp"
#include "results/schema/MidRunTenancy.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

std::string what(const MidRunTenant& t) {
  const auto& p = t.process;
  if (p.pid == 0)
    return "the GPU was " + fixed(t.utilization_pct.value_or(0), 0) + "% busy while the job was idle, though NVML "
           "lists no new process (a container or MIG hides it)";
  std::string text = "PID " + std::to_string(p.pid) + " (" + (p.name.empty() ? "name not readable" : p.name);
  if (p.used_memory_bytes) text += ", " + std::to_string(*p.used_memory_bytes >> 20) + " MiB";
  return text + ") " + (p.compute ? "computes on it" : "holds memory on it");
}

}  // namespace

void midrun_tenancy_checks(const std::vector<MidRunTenant>& tenants, std::vector<Check>& out) {
  for (const auto& t : tenants) {
    const bool computes = t.process.pid == 0 || t.process.compute;
    out.push_back(Check{check_ids::kGpuInUse, computes ? Severity::error : Severity::warning, {t.rank},
                        t.gpu + " on " + t.host + ": another process appeared during " + t.phase + ": " + what(t) +
                            "; the figures of " + t.phase + " and of the phases after it while it stayed were "
                            "measured beside it (shared_phases): stop it and run again"});
  }
}

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
  midrun_tenancy_checks(during, judged.checks);
  return judged;
}

}  // namespace

extern const RuleFamily kTenancyChecks{
    "tenancy", "*", "tenants[]", "gpu-in-use error (computes) or warning (holds memory)", GpuBlock::none, tenancy};

}  // namespace gpuscale::judge
