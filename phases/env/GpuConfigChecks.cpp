#include "phases/env/GpuConfigChecks.hpp"

#include <cmath>
#include <map>
#include <set>

#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

namespace ids = check_ids;

std::string who(const RankEnv& r) { return "GPU " + r.gpu->pci_bus_id + " on " + r.host; }

// The limit the GPU runs at: as an administrator set it, else what NVML enforces.
std::optional<double> power_limit(const GpuInfo& g) {
  return g.power_management_limit_w ? g.power_management_limit_w : g.power_limit_w;
}

std::string watts(double w) { return fixed(w, 0) + " W"; }

void row_remap(const RankEnv& r, std::vector<Check>& out) {
  const auto& g = *r.gpu;
  if (g.remapped_rows_pending.value_or(0) > 0)
    out.push_back({ids::kRowRemapPending,
                   Severity::warning,
                   {r.rank},
                   who(r) + " has a pending row remap: " + results::fix_text(ids::kRowRemapPending)});
  if (g.remapped_rows_failure.value_or(0) > 0)
    out.push_back({ids::kRowRemapFailed,
                   Severity::error,
                   {r.rank},
                   who(r) + " failed a row remap: " + results::fix_text(ids::kRowRemapFailed)});
}

void modes(const RankEnv& r, std::vector<Check>& out) {
  const auto& g = *r.gpu;
  if (g.ecc_enabled == false)
    out.push_back(
        {ids::kEccDisabled,
         Severity::warning,
         {r.rank},
         who(r) + " runs with ECC off: memory errors go undetected; " + results::fix_text(ids::kEccDisabled)});
  if (g.mig_enabled == true)
    out.push_back({ids::kMigEnabled,
                   Severity::error,
                   {r.rank},
                   who(r) + " is in MIG mode: the job runs on a slice of it; " + results::fix_text(ids::kMigEnabled)});
  if (g.persistence_enabled == false)
    out.push_back({ids::kPersistenceOff, Severity::info, {r.rank},
                   who(r) + " has persistence mode off: every job waits for the driver to initialise it "
                            "(nvidia-smi -pm 1, or the nvidia-persistenced service)"});
}

void power_and_clocks(const RankEnv& r, std::vector<Check>& out) {
  const auto& g = *r.gpu;
  const auto limit = power_limit(g);
  if (limit && g.power_default_limit_w && *limit < *g.power_default_limit_w - 0.5)
    out.push_back({ids::kPowerLimitLowered, Severity::warning, {r.rank},
                   who(r) + " power limit " + watts(*limit) + " is below its default " +
                       watts(*g.power_default_limit_w) + ": it computes slower under load; restore it "
                       "(nvidia-smi -i <gpu> -pl " + fixed(*g.power_default_limit_w, 0) + ")"});
  std::string why;
  if (g.applications_clock_sm_mhz && g.default_applications_clock_sm_mhz &&
      *g.applications_clock_sm_mhz < *g.default_applications_clock_sm_mhz)
    why = "application clocks set to " + std::to_string(*g.applications_clock_sm_mhz) + " MHz, below their default " +
          std::to_string(*g.default_applications_clock_sm_mhz) + " MHz";
  else if (g.clock_event_reasons && (*g.clock_event_reasons & kClockEventApplicationsClocks))
    why = "clocks held by an application-clocks or locked-clocks setting (NVML clock event reason)";
  if (!why.empty())
    out.push_back({ids::kClocksLowered,
                   Severity::warning,
                   {r.rank},
                   who(r) + " has its " + why + ": " + results::fix_text(ids::kClocksLowered)});
}

// The job's GPUs of one model should all run at one power limit: a lower one is the slow one.
void power_mismatch(const std::vector<RankEnv>& ranks, std::vector<Check>& out) {
  std::map<std::string, std::map<long, std::vector<int>>> by_model;  // model -> watts -> ranks
  for (const auto& r : ranks)
    if (r.gpu)
      if (const auto limit = power_limit(*r.gpu)) by_model[r.gpu->name][std::lround(*limit)].push_back(r.rank);
  for (const auto& [model, limits] : by_model) {
    if (limits.size() < 2) continue;
    std::string text;
    std::vector<int> lower;
    for (const auto& [w, on] : limits) {
      text += (text.empty() ? "" : ", ") + std::to_string(w) + " W on ranks " + join_ints(on);
      if (w != limits.rbegin()->first) lower.insert(lower.end(), on.begin(), on.end());
    }
    out.push_back({ids::kPowerLimitMismatch, Severity::warning, lower,
                   "the job's " + model + " GPUs run at different power limits (" + text +
                       "): the lower ones hold every collective back; " + results::fix_text(ids::kPowerLimitMismatch)});
  }
}

}  // namespace

void gpu_config_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out) {
  std::set<std::string> seen;  // a GPU shared by ranks is judged once
  for (const auto& r : ranks) {
    if (!r.gpu || !seen.insert(r.host + "/" + r.gpu->pci_bus_id).second) continue;
    row_remap(r, out);
    modes(r, out);
    power_and_clocks(r, out);
  }
  power_mismatch(ranks, out);
}

}  // namespace gpuscale::judge
