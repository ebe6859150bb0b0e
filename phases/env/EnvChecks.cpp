#include "phases/env/EnvChecks.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "phases/env/GpuConfigChecks.hpp"
#include "phases/env/HealthChecks.hpp"
#include "phases/env/LaunchChecks.hpp"
#include "phases/env/NcclPathChecks.hpp"
#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"
#include "results/world/CpuList.hpp"
#include "results/world/Emulation.hpp"

namespace gpuscale::judge {

namespace ids = results::check_ids;
namespace {

using results::Check;
using results::RankEnv;
using results::Severity;
using Checks = std::vector<Check>;

// The GPU work a finding stops is the check table's (results/base/CheckTable.def), not the site's.
void add(Checks& out, std::string id, Severity severity, std::vector<int> ranks, std::string message) {
  const auto block = results::env_gpu_block(id, severity);
  out.push_back(Check{std::move(id), severity, std::move(ranks), std::move(message), block});
}

std::string ranks_text(const std::vector<int>& ranks) { return "ranks " + results::join_ints(ranks); }

// In the shared-GPU test mode ranks of different emulated nodes may drive one GPU: only ranks of one
// node that share it are duplicates there.
void duplicate_gpus(const std::vector<RankEnv>& ranks, Checks& out) {
  std::map<std::string, std::vector<int>> by_uuid;
  for (const auto& r : ranks)
    if (r.gpu)
      by_uuid[r.gpu->uuid + (results::shares_gpu_across_nodes(r) ? "/node" + std::to_string(r.node) : "")].push_back(
          r.rank);
  for (const auto& [key, users] : by_uuid) {
    if (users.size() < 2) continue;
    const auto& g = *ranks[static_cast<std::size_t>(users.front())].gpu;
    add(out, ids::kDuplicateGpu, Severity::error, users,
        ranks_text(users) + " share GPU " + g.uuid + " (" + g.name + ", " + g.pci_bus_id + " on " +
            ranks[static_cast<std::size_t>(users.front())].host + "): " + results::fix_text(ids::kDuplicateGpu));
  }
}

void ranks_per_node(const std::vector<RankEnv>& ranks, Checks& out) {
  std::map<int, std::vector<const RankEnv*>> nodes;
  for (const auto& r : ranks) nodes[r.node].push_back(&r);
  for (const auto& [node, members] : nodes) {
    if (members.front()->backend != "cuda") continue;
    // GPUs the node's ranks can use: what one rank sees, or more where each sees its own (--gpus-per-task).
    int visible = 0;
    std::set<std::string> uuids;
    for (const auto* r : members) {
      visible = std::max(visible, r->visible_gpu_count);
      if (r->gpu) uuids.insert(r->gpu->uuid);
    }
    const int gpus = std::max(visible, static_cast<int>(uuids.size()));
    if (static_cast<int>(members.size()) <= gpus) continue;
    std::vector<int> ids;
    for (const auto* r : members) ids.push_back(r->rank);
    add(out, ids::kMoreRanksThanGpus, Severity::error, ids,
        std::to_string(members.size()) + " ranks on " + members.front()->host + " but only " + std::to_string(gpus) +
            " GPU" + (gpus == 1 ? "" : "s") + " visible to them: launch one rank per GPU (mpirun -np " +
            std::to_string(gpus) + " per node, or srun --ntasks-per-node=" + std::to_string(gpus) + ")");
  }
}

// Ranks whose value differs from rank 0's; empty when all agree.
std::vector<int> differing(const std::vector<RankEnv>& ranks, const std::function<std::string(const RankEnv&)>& value) {
  std::vector<int> out;
  for (const auto& r : ranks)
    if (value(r) != value(ranks.front())) out.push_back(r.rank);
  return out;
}

void consistency(const std::vector<RankEnv>& ranks, Checks& out) {
  struct Item {
    const char* id;
    const char* what;
    Severity severity;
    std::function<std::string(const RankEnv&)> value;
  };
  const std::vector<Item> items = {
      {ids::kGpuModelMismatch, "GPU model", Severity::warning,
       [](const RankEnv& r) { return r.gpu ? r.gpu->name : ""; }},
      {ids::kDriverMismatch, "NVIDIA driver", Severity::warning, [](const RankEnv& r) { return r.versions.driver; }},
      {ids::kCudaMismatch, "CUDA runtime", Severity::warning,
       [](const RankEnv& r) { return results::cuda_version_string(r.versions.cuda_runtime); }},
      {ids::kCudnnMismatch, "cuDNN library", Severity::warning,
       [](const RankEnv& r) { return results::dotted_version(r.versions.cudnn_library); }},
      {ids::kNcclMismatch, "NCCL library", Severity::error,
       [](const RankEnv& r) { return results::dotted_version(r.versions.nccl_library); }},
      {ids::kMpiMismatch, "MPI library", Severity::error, [](const RankEnv& r) { return r.versions.mpi_library; }},
  };
  for (const auto& item : items) {
    const auto odd = differing(ranks, item.value);
    if (odd.empty()) continue;
    add(out, item.id, item.severity, odd,
        std::string(item.what) + " differs from rank 0's (" + item.value(ranks.front()) + " vs " +
            item.value(ranks[static_cast<std::size_t>(odd.front())]) + " on rank " + std::to_string(odd.front()) +
            "): " + results::fix_text(item.id));
  }
}

void header_vs_library(const std::vector<RankEnv>& ranks, Checks& out) {
  std::vector<int> nccl, cudnn;
  for (const auto& r : ranks) {
    if (r.backend != "cuda") continue;
    if (r.versions.nccl_header != r.versions.nccl_library) nccl.push_back(r.rank);
    if (r.versions.cudnn_header != r.versions.cudnn_library) cudnn.push_back(r.rank);
  }
  if (!nccl.empty()) {
    const auto& v = ranks[static_cast<std::size_t>(nccl.front())].versions;
    add(out, ids::kNcclHeaderMismatch, Severity::warning, nccl,
        "built against NCCL " + results::dotted_version(v.nccl_header) + " headers but loaded libnccl " +
            results::dotted_version(v.nccl_library) + ": " + results::fix_text(ids::kNcclHeaderMismatch));
  }
  if (!cudnn.empty()) {
    const auto& v = ranks[static_cast<std::size_t>(cudnn.front())].versions;
    add(out, ids::kCudnnHeaderMismatch, Severity::warning, cudnn,
        "built against cuDNN " + results::dotted_version(v.cudnn_header) + " headers but loaded " +
            results::dotted_version(v.cudnn_library) + ": " + results::fix_text(ids::kCudnnHeaderMismatch));
  }
}

void numa_binding(const std::vector<RankEnv>& ranks, Checks& out) {
  for (const auto& r : ranks) {
    if (!r.gpu || r.gpu->numa_node < 0 || r.numa_cpus.size() < 2) continue;
    const auto node = r.numa_cpus.find(r.gpu->numa_node);
    if (node == r.numa_cpus.end()) continue;
    const auto local = results::parse_cpulist(node->second);
    const auto mine = results::parse_cpulist(r.cpu_affinity);
    if (std::includes(local.begin(), local.end(), mine.begin(), mine.end())) continue;
    const bool unbound = static_cast<int>(mine.size()) >= r.cpu_online;
    add(out, ids::kNumaBinding, Severity::warning, {r.rank},
        std::string(unbound ? "not bound to any CPUs" : "bound to CPUs " + r.cpu_affinity) + " but its GPU " +
            r.gpu->pci_bus_id + " is on NUMA node " + std::to_string(r.gpu->numa_node) + " (CPUs " + node->second +
            "): " + results::fix_text(ids::kNumaBinding));
  }
}

void nccl_variables(const std::vector<RankEnv>& ranks, Checks& out) {
  static const char* const kTuning[] = {"NCCL_P2P_DISABLE",   "NCCL_SHM_DISABLE",  "NCCL_IB_DISABLE",
                                        "NCCL_ALGO",          "NCCL_PROTO",        "NCCL_NET_GDR_LEVEL",
                                        "NCCL_P2P_LEVEL",     "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS",
                                        "NCCL_BUFFSIZE",      "NCCL_NTHREADS",     "NCCL_NET",
                                        "NCCL_CUMEM_ENABLE",  "NCCL_HOSTID",       "NCCL_COLLNET_ENABLE"};
  std::map<std::string, std::vector<int>> seen;
  for (const auto& r : ranks)
    for (const char* name : kTuning) {
      const auto it = r.variables.find(name);
      if (it == r.variables.end()) continue;
      // The shared-GPU test mode sets NCCL_HOSTID itself (results/world/Emulation.hpp).
      if (results::shares_gpu_across_nodes(r) && it->second.starts_with(results::kEmulatedHostPrefix)) continue;
      seen[std::string(name) + "=" + it->second].push_back(r.rank);
    }
  for (const auto& [setting, who] : seen)
    add(out, ids::kNcclDebugVariable, Severity::warning, who,
        setting +
            " overrides NCCL's own choice and usually costs bandwidth: " + results::fix_text(ids::kNcclDebugVariable));
}

void p2p(const std::vector<RankEnv>& ranks, Checks& out) {
  for (const auto& r : ranks) {
    if (!r.gpu) continue;
    for (const auto& peer : r.gpu->peers)
      if (peer.cuda_visible && !peer.can_access)
        add(out, ids::kNoP2p, Severity::warning, {r.rank},
            "GPU " + r.gpu->pci_bus_id + " cannot access peer GPU " + peer.peer_pci_bus_id + " on " + r.host +
                ": NCCL falls back to host memory; " + results::fix_text(ids::kNoP2p));
  }
}

void health(const std::vector<RankEnv>& ranks, Checks& out) {
  constexpr std::uint64_t kGpuIdle = 0x1, kSwPowerCap = 0x4, kHwSlowdown = 0x8, kSwThermal = 0x20,
                          kHwThermal = 0x40, kHwPowerBrake = 0x80;
  for (const auto& r : ranks) {
    if (!r.gpu) continue;
    const auto& g = *r.gpu;
    const std::string who = "GPU " + g.pci_bus_id + " on " + r.host;
    if (g.memory_total_bytes && static_cast<double>(g.memory_free_bytes) <
                                    kLowFreeMemoryFraction * static_cast<double>(g.memory_total_bytes))
      add(out, ids::kLowFreeMemory, Severity::warning, {r.rank},
          who + " has only " + results::gib(g.memory_free_bytes) + " of " + results::gib(g.memory_total_bytes) +
              " GiB free: another process holds memory on it (nvidia-smi shows which); stop it");
    if (g.clock_event_reasons) {
      const auto reasons = *g.clock_event_reasons & ~kGpuIdle;
      if (reasons & (kHwSlowdown | kSwThermal | kHwThermal | kHwPowerBrake))
        add(
            out, ids::kGpuThrottling, Severity::warning, {r.rank},
            who + " is throttling (NVML clock event reasons 0x" +
                [&] {
                  char hex[32];
                  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(reasons));
                  return std::string(hex);
                }() +
                ": thermal or power slowdown): " + results::fix_text(ids::kGpuThrottling));
      else if (reasons & kSwPowerCap)
        add(out, ids::kGpuPowerCapped, Severity::info, {r.rank}, who + " runs at its software power cap");
    }
    if (g.ecc_uncorrected_volatile && *g.ecc_uncorrected_volatile > 0)
      add(out, ids::kEccUncorrected, Severity::error, {r.rank},
          who + " reports " + std::to_string(*g.ecc_uncorrected_volatile) +
              " uncorrected ECC errors since the driver loaded: " + results::fix_text(ids::kEccUncorrected));
  }
}

void backend_and_smoke(const std::vector<RankEnv>& ranks, Checks& out) {
  std::vector<int> fallback, failed, unusable;
  for (const auto& r : ranks) {
    if (r.backend_fallback) fallback.push_back(r.rank);
    if (!r.cuda_unusable.empty()) unusable.push_back(r.rank);
    if (r.smoke.ran && !r.smoke.passed) failed.push_back(r.rank);
  }
  // A GPU node whose GPUs CUDA cannot use fails: running on the CPU and passing would put it in service.
  if (!unusable.empty())
    add(out, ids::kCudaUnusable, Severity::error, unusable,
        ranks[static_cast<std::size_t>(unusable.front())].cuda_unusable + " (or pass --device cpu to mean the CPU)");
  if (!fallback.empty())
    add(out, ids::kCpuFallback, Severity::warning, fallback,
        "no GPU is visible, so these ranks ran on the CPU backend: " + results::fix_text(ids::kCpuFallback));
  if (!failed.empty()) {
    const auto& s = ranks[static_cast<std::size_t>(failed.front())].smoke;
    add(out, ids::kSmokeAllreduceFailed, Severity::error, failed,
        "the verified allreduce failed (" + (s.error.empty() ? std::to_string(s.wrong) + " wrong elements" : s.error) +
            "): the communication stack is broken; " + results::fix_text(ids::kSmokeAllreduceFailed));
  }
}

}  // namespace

std::vector<results::Check> run_env_checks(const std::vector<results::RankEnv>& ranks, double busy_utilization_pct) {
  Checks out;
  if (ranks.empty()) return out;
  duplicate_gpus(ranks, out);
  ranks_per_node(ranks, out);
  launch_checks(ranks, out);
  nccl_path_checks(ranks, out);
  consistency(ranks, out);
  header_vs_library(ranks, out);
  numa_binding(ranks, out);
  nccl_variables(ranks, out);
  p2p(ranks, out);
  health(ranks, out);
  gpu_config_checks(ranks, out);
  tenancy_checks(ranks, out, busy_utilization_pct);
  nccl_plugin_checks(ranks, out);
  adapter_checks(ranks, out);
  backend_and_smoke(ranks, out);
  std::stable_sort(out.begin(), out.end(),
                   [](const Check& a, const Check& b) { return a.severity > b.severity; });
  return out;
}

namespace phases::env {
namespace {

// The probes and checks ran where the phase completed; the smoke allreduce where any rank ran it.
ItemMeasured env_measured(const Records& ranks, const results::PlannedItem& item, bool completed) {
  if (item.kind == results::planned::kEnvChecks) return measured_if(completed);
  if (item.kind != results::planned::kSmokeAllreduce) return measured_if(false);
  auto m = measured_if(std::any_of(ranks.begin(), ranks.end(), [](const RankEnv& e) { return e.smoke.ran; }));
  for (const auto& e : ranks) note_item_skip(m, e.smoke.skipped_reason);
  return m;
}

}  // namespace

// Env's findings decide whether the GPU phases run: phases/env/run/EnvPhase.cpp calls this family before
// them. What a process found computing on a GPU cost the burn beside it is the tenancy family's to add
// (TenancyChecks.hpp, its amend).
extern constinit const PhaseRulesOf<Records> kRules{
    .reads = "ranks[]",
    .severities = "duplicate-gpu, more-ranks-than-gpus, gpu-in-use (stop GPU work), version mismatches, launch "
                  "and NCCL-path checks, GPU configuration and health, adapters, smoke-allreduce-failed: error, "
                  "warning or info as docs/CHECKS.md lists",
    .stops_gpu_work = GpuBlock::all_gpu_work,
    .judge = [](const Records& ranks, const RuleContext& context) {
      Judged judged;
      judged.checks = run_env_checks(ranks, context.busy_utilization_pct);
      return judged;
    },
    .beside_tenant_marks = nullptr,
    .measured = env_measured,
    .count_skips = nullptr,
    .item_traits = nullptr,
};

}  // namespace phases::env

}  // namespace gpuscale::judge
