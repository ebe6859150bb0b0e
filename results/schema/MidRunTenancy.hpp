#pragma once
// What each rank saw on its GPU at the end of every phase (TenancyLook: every rank idle after a
// barrier, plus what the burn's load sampler listed during the phase), and what the judge found in
// those looks (judge/MidRunTenants.hpp): the processes that appeared after env listed them
// (MidRunTenant), each named with the phase in which it appeared and the phases its GPU was measured
// beside it; the phases measured beside any are listed as shared, so that the judge marks the figures
// that were not the GPU's alone. Pure data; rank 0 holds them in the RunReport.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/base/Check.hpp"
#include "results/base/RecordFields.hpp"
#include "results/base/RuleInputRanges.hpp"
#include "results/world/HealthRecords.hpp"

namespace gpuscale::results {

// One rank's look at its GPU at the end of a phase: measurements only.
struct TenancyLook {
  std::string phase;  // the phase that had just ended
  int rank = -1;
  // NVML's processes then, with those the phase's sampler listed that had left, and the idle samples
  // of utilization and memory (Tenancy's fields; unavailable_reason is not kept).
  Tenancy seen;
  // A second look's utilization samples, a whole NVML sample period after the first (whose samples
  // may still hold the job's own last kernels); taken only where the first read busy.
  std::vector<unsigned> utilization_again_pct;
};

struct MidRunTenant {
  std::string phase;  // the phase in which it appeared: the one that ended where it was first seen
  int rank = -1;      // the rank whose GPU it is on
  std::string host;
  std::string gpu;    // "GPU <PCI bus id> (<model>)", or "the device of rank R" without a GPU
  // pid 0: NVML listed no new process, but the GPU was busy while the job was idle (a container or
  // MIG hides it): utilization_pct says how busy.
  GpuProcess process;
  std::optional<double> utilization_pct;
  // The phases its rank's GPU was measured beside it: the one it appeared in, and each later one at
  // whose start or end a process not the job's was still on that GPU. Empty in a file written before
  // the list existed: its phase and the later ones of shared_phases (judge/TenancyChecks.hpp).
  std::vector<std::string> phases;
};

// Whether `phase` is listed in `shared_phases` (RunReport::shared_phases).
bool measured_shared(const std::vector<std::string>& shared_phases, const std::string& phase);

constexpr auto json_fields(const MidRunTenant*) {
  using T = MidRunTenant;
  return fields(field("phase", &T::phase), field("rank", &T::rank), field("host", &T::host),
                field("gpu", &T::gpu).optional(), field("pid", [](auto& t) -> auto& { return t.process.pid; }),
                field("name", [](auto& t) -> auto& { return t.process.name; }),
                field("compute", [](auto& t) -> auto& { return t.process.compute; }),
                field("memory_bytes", [](auto& t) -> auto& { return t.process.used_memory_bytes; }),
                field("utilization_pct", &T::utilization_pct), field("phases", &T::phases).omitted_when_default());
}

constexpr auto json_fields(const TenancyLook*) {
  using T = TenancyLook;
  return fields(field("phase", &T::phase), field("rank", &T::rank),
                field("processes", [](auto& t) -> auto& { return t.seen.processes; }).omitted_when_default(),
                field("utilization_pct", [](auto& t) -> auto& { return t.seen.utilization_pct; })
                    .omitted_when_default(),
                field("memory_used_bytes", [](auto& t) -> auto& { return t.seen.memory_used_bytes; })
                    .omitted_when_default(),
                field("utilization_again_pct", &T::utilization_again_pct).omitted_when_default());
}

void to_json(nlohmann::json& j, const TenancyLook& t);
void from_json(const nlohmann::json& j, TenancyLook& t);
void to_json(nlohmann::json& j, const MidRunTenant& t);
void from_json(const nlohmann::json& j, MidRunTenant& t);

}  // namespace gpuscale::results
