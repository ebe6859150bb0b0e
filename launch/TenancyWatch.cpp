#include "launch/TenancyWatch.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "launch/Job.hpp"
#include "probes/TenancyProbe.hpp"
#include "results/models/GpuTenants.hpp"
#include "results/schema/MidRunTenancy.hpp"

namespace gpuscale::launch {

TenancyWatch::TenancyWatch(const results::RankEnv& own)
    : pci_bus_id_(own.gpu ? own.gpu->pci_bus_id : ""), backend_(own.backend), host_(own.host), rank_(own.rank) {
  gpu_ = own.gpu ? "GPU " + own.gpu->pci_bus_id + " (" + own.gpu->name + ")" : "the device of rank " + std::to_string(rank_);
  for (const auto& p : own.tenancy.processes) known_.insert(p.pid);
}

namespace {

// The processes listed now that are neither the job's nor listed by env. Where a PID namespace hides
// PIDs, the other ranks of the node may hold unnamed contexts on this GPU (peer access): that many
// unnamed compute processes count as the job's.
std::vector<results::GpuProcess> strangers(const results::Tenancy& now, const std::set<int>& known, int node_ranks) {
  std::vector<results::GpuProcess> out;
  int unclaimed = std::max(0, node_ranks - 1);
  for (const auto& p : now.processes) {
    if (known.count(p.pid)) continue;
    if (p.name.empty() && p.compute && unclaimed-- > 0) continue;
    out.push_back(p);
  }
  return out;
}

}  // namespace

void TenancyWatch::at_boundary(Job& job, const std::string& phase) {
  auto& world = job.world();
  world.barrier(job.deadline());  // every rank idle from here
  if (!job_pids_gathered_) {
    // Every rank of the job on this host, not only this node's: emulated nodes share a host (and, in
    // the shared-GPU test mode, its GPUs), and the World learnt their PIDs at start-up.
    known_.insert(static_cast<int>(getpid()));
    for (int r = 0; r < world.size(); ++r)
      if (const long pid = world.peer_pid(r); pid > 0) known_.insert(static_cast<int>(pid));
    job_pids_gathered_ = true;
  }
  auto now = probes::look_at_gpu(pci_bus_id_, backend_, kBoundarySamples);
  for (auto& p : seen_)
    if (std::none_of(now.processes.begin(), now.processes.end(), [&](const auto& q) { return q.pid == p.pid; })) {
      p.name = probes::process_name(p.pid);
      now.processes.push_back(p);
    }
  seen_.clear();
  const auto present = strangers(now, known_, world.local_size());
  nlohmann::json mine = {{"present", !present.empty()}, {"tenants", nlohmann::json::array()}};
  for (const auto& p : present) {
    if (!reported_.insert(p.pid).second) continue;
    mine["tenants"].push_back(nlohmann::json(results::MidRunTenant{phase, rank_, host_, gpu_, p, std::nullopt, {phase}}));
  }
  // Busy while every rank was idle, with no new process listed: the lowest sample. NVML's figure is
  // the busy share of its last sample period, up to a second long, so the job's own last kernels can
  // still show in it (27% at 0.3 s after burn on an H200): a busy look is taken again once a whole
  // period has passed, and only that one counts.
  if (present.empty() && !now.utilization_pct.empty() && !busy_reported_) {
    double low = *std::min_element(now.utilization_pct.begin(), now.utilization_pct.end());
    if (low >= results::kBusyBeforeStartPct) {
      std::this_thread::sleep_for(std::chrono::duration<double>(kUtilizationPeriodS));
      const auto again = probes::look_at_gpu(pci_bus_id_, backend_, kBoundarySamples).utilization_pct;
      if (!again.empty()) low = *std::min_element(again.begin(), again.end());
    }
    if (low >= results::kBusyBeforeStartPct) {
      busy_reported_ = true;
      mine["present"] = true;
      mine["tenants"].push_back(nlohmann::json(results::MidRunTenant{phase, rank_, host_, gpu_, {}, low, {phase}}));
    }
  }
  const auto all = world.gather_to_root(mine.dump(), job.deadline());
  if (world.rank() != 0) return;
  auto& report = job.report();
  std::vector<bool> present_now(all.size(), false);
  std::vector<results::MidRunTenant> found;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto j = nlohmann::json::parse(all[r]);
    present_now[r] = j.at("present").get<bool>();
    for (const auto& t : j.at("tenants")) found.push_back(t.get<results::MidRunTenant>());
  }
  present_before_.resize(all.size(), false);
  // A tenant seen before measured this phase beside it while something not the job's was on its GPU
  // at the phase's start or end.
  for (auto& t : report.tenants) {
    const auto r = static_cast<std::size_t>(t.rank);
    if (r < all.size() && (present_before_[r] || present_now[r]) && !results::measured_shared(t.phases, phase))
      t.phases.push_back(phase);
  }
  report.tenants.insert(report.tenants.end(), found.begin(), found.end());
  const bool any = std::find(present_now.begin(), present_now.end(), true) != present_now.end() ||
                   std::find(present_before_.begin(), present_before_.end(), true) != present_before_.end();
  if (any && !results::measured_shared(report.shared_phases, phase)) report.shared_phases.push_back(phase);
  present_before_ = present_now;
  if (!found.empty()) job.progress("gpu-in-use: another process appeared on a GPU during " + phase);
}

void TenancyWatch::seen_during_phase(const std::vector<results::GpuProcess>& processes) {
  seen_.insert(seen_.end(), processes.begin(), processes.end());
}

}  // namespace gpuscale::launch
