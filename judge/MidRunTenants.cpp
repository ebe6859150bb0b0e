#include "judge/MidRunTenants.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "results/world/GpuTenants.hpp"

namespace gpuscale::judge {
namespace {

using results::GpuProcess;
using results::MidRunTenant;
using results::RankEnv;
using results::TenancyLook;

std::optional<std::size_t> index_of(const std::vector<RankEnv>& ranks, int rank) {
  if (rank >= 0 && static_cast<std::size_t>(rank) < ranks.size() && ranks[static_cast<std::size_t>(rank)].rank == rank)
    return static_cast<std::size_t>(rank);
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i].rank == rank) return i;
  return std::nullopt;
}

std::string tenant_gpu_text(const RankEnv& e) {
  return e.gpu ? "GPU " + e.gpu->pci_bus_id + " (" + e.gpu->name + ")" : "the device of rank " + std::to_string(e.rank);
}

// The processes of the look that are neither the job's nor listed by env on that rank's GPU.
std::vector<GpuProcess> strangers(const std::vector<RankEnv>& ranks, std::size_t index, const TenancyLook& look) {
  auto out = results::foreign_processes(ranks, index, look.seen.processes, results::JobContexts::on_its_node);
  const auto& at_start = ranks[index].tenancy.processes;
  std::erase_if(out, [&](const GpuProcess& p) {
    return std::any_of(at_start.begin(), at_start.end(), [&](const GpuProcess& q) { return q.pid == p.pid; });
  });
  return out;
}

void add_phase(std::vector<std::string>& phases, const std::string& phase) {
  if (std::find(phases.begin(), phases.end(), phase) == phases.end()) phases.push_back(phase);
}

}  // namespace

MidRunJudgement judge_midrun_tenants(const std::vector<RankEnv>& ranks, const std::vector<TenancyLook>& looks,
                                     double busy_utilization_pct) {
  MidRunJudgement out;
  std::vector<std::string> phases;
  for (const auto& l : looks) add_phase(phases, l.phase);
  std::map<int, std::set<int>> reported;  // rank -> the PIDs already named
  std::set<int> busy_named;               // ranks whose GPU was named busy
  std::set<int> present_before;           // ranks with a tenant at the previous boundary
  for (const auto& phase : phases) {
    std::set<int> present;
    std::vector<MidRunTenant> found;
    for (const auto& look : looks) {
      if (look.phase != phase) continue;
      const auto index = index_of(ranks, look.rank);
      if (!index) continue;
      const auto& env = ranks[*index];
      const auto seen = strangers(ranks, *index, look);
      if (!seen.empty()) present.insert(look.rank);
      for (const auto& p : seen)
        if (reported[look.rank].insert(p.pid).second)
          found.push_back({phase, look.rank, env.host, tenant_gpu_text(env), p, std::nullopt, {phase}});
      // NVML's figure is the busy share of its last sample period (up to a second), so the job's own
      // last kernels can show in the first look: the second, a whole period later, is the one judged.
      const auto& samples = look.utilization_again_pct.empty() ? look.seen.utilization_pct : look.utilization_again_pct;
      if (seen.empty() && !busy_named.count(look.rank) && results::reads_busy(samples, busy_utilization_pct)) {
        busy_named.insert(look.rank);
        present.insert(look.rank);
        found.push_back(
            {phase, look.rank, env.host, tenant_gpu_text(env), {}, results::mean_utilization_pct(samples), {phase}});
      }
    }
    // A tenant seen before measured this phase beside it while something not the job's was on its GPU
    // at the phase's start or end.
    for (auto& t : out.tenants)
      if (present_before.count(t.rank) || present.count(t.rank)) add_phase(t.phases, phase);
    out.tenants.insert(out.tenants.end(), found.begin(), found.end());
    if (!present.empty() || !present_before.empty()) add_phase(out.shared_phases, phase);
    present_before = std::move(present);
  }
  return out;
}

}  // namespace gpuscale::judge
