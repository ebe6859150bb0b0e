#include "results/MidRunTenancy.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "results/CheckIds.hpp"
#include "results/Format.hpp"
#include "results/JsonFields.hpp"

namespace gpuscale::results {
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

bool measured_shared(const std::vector<std::string>& shared_phases, const std::string& phase) {
  return std::find(shared_phases.begin(), shared_phases.end(), phase) != shared_phases.end();
}

GPUSCALE_JSON_FROM_FIELDS(MidRunTenant)

}  // namespace gpuscale::results
