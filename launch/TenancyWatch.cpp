#include "launch/TenancyWatch.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "judge/MidRunTenants.hpp"
#include "probes/TenancyProbe.hpp"
#include "results/schema/MidRunTenancy.hpp"
#include "results/world/GpuTenants.hpp"

namespace gpuscale::launch {

TenancyWatch::TenancyWatch(const results::RankEnv& own)
    : pci_bus_id_(own.gpu ? own.gpu->pci_bus_id : ""), backend_(own.backend), rank_(own.rank) {}

void TenancyWatch::at_boundary(const std::string& phase, const BoundaryInputs& job) {
  auto& world = job.world;
  world.barrier(harness::Deadline::after(job.timeout_s));  // every rank idle from here
  results::TenancyLook look{phase, rank_, probes::look_at_gpu(pci_bus_id_, backend_, kBoundarySamples), {}};
  auto& listed = look.seen.processes;
  for (auto& p : seen_)
    if (std::none_of(listed.begin(), listed.end(), [&](const auto& q) { return q.pid == p.pid; })) {
      p.name = probes::process_name(p.pid);
      listed.push_back(p);
    }
  seen_.clear();
  // NVML's figure is the busy share of its last sample period, up to a second long, so the job's own
  // last kernels can still show in it (27% at 0.3 s after burn on an H200): a look that reads busy by
  // the judge's arithmetic is taken again once a whole period has passed, and the judge reads that one.
  if (results::reads_busy(look.seen.utilization_pct, results::kDefaultBusyUtilizationPct)) {
    std::this_thread::sleep_for(std::chrono::duration<double>(kUtilizationPeriodS));
    look.utilization_again_pct = probes::look_at_gpu(pci_bus_id_, backend_, kBoundarySamples).utilization_pct;
  }
  const bool anything = !listed.empty() || !look.seen.utilization_pct.empty();
  const auto all = world.gather_to_root(anything ? nlohmann::json(look).dump() : std::string(), harness::Deadline::after(job.timeout_s));
  if (world.rank() != 0) return;
  auto& report = job.report;
  for (const auto& text : all)
    if (!text.empty()) report.tenancy_looks.push_back(nlohmann::json::parse(text).get<results::TenancyLook>());
  const auto judged = judge::judge_midrun_tenants(report.ranks, report.tenancy_looks, report.busy_utilization_pct);
  if (std::any_of(judged.tenants.begin(), judged.tenants.end(), [&](const auto& t) { return t.phase == phase; }))
    job.progress("gpu-in-use: another process appeared on a GPU during " + phase);
}

void TenancyWatch::seen_during_phase(const std::vector<results::GpuProcess>& processes) {
  seen_.insert(seen_.end(), processes.begin(), processes.end());
}

}  // namespace gpuscale::launch
