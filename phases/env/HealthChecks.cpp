#include "phases/env/HealthChecks.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "results/base/CheckIds.hpp"
#include "results/base/CheckTable.hpp"
#include "results/base/Format.hpp"
#include "results/world/GpuTenants.hpp"

namespace gpuscale::judge {

using namespace results;

namespace {

std::string whole_mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string process_text(const GpuProcess& p) {
  std::string text = "PID " + std::to_string(p.pid) + " (" + (p.name.empty() ? "name not readable" : p.name);
  if (p.used_memory_bytes) text += ", " + whole_mib(*p.used_memory_bytes);
  return text + ")";
}

// What the check says about the foreign processes: each named one, or for those a PID namespace
// hides, how many there are and how much memory they hold.
std::string describe(const std::vector<GpuProcess>& processes) {
  std::vector<std::string> named;
  int hidden = 0;
  std::uint64_t hidden_bytes = 0;
  for (const auto& p : processes) {
    if (!p.name.empty()) {
      named.push_back(process_text(p));
    } else {
      ++hidden;
      hidden_bytes += p.used_memory_bytes.value_or(0);
    }
  }
  std::string text = join_words(named);
  if (hidden > 0) {
    if (!text.empty()) text += ", and ";
    text += std::to_string(hidden) + " process" + (hidden == 1 ? "" : "es") + " whose PID" +
            (hidden == 1 ? " is" : "s are") + " not visible here (another PID namespace) holding " +
            whole_mib(hidden_bytes);
  }
  return text;
}

std::string gpu_text(const RankEnv& r) {
  if (!r.gpu) return "the device of rank " + std::to_string(r.rank) + " on " + r.host;
  return "GPU " + r.gpu->pci_bus_id + " (" + r.gpu->name + ", " + r.gpu->uuid + ") on " + r.host;
}

// Ranks that use one GPU: same host and GPU UUID; a rank without a GPU record is its own group.
std::map<std::string, std::vector<std::size_t>> ranks_by_gpu(const std::vector<RankEnv>& ranks) {
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const auto& r = ranks[i];
    groups[r.host + "/" + (r.gpu ? r.gpu->uuid : "rank" + std::to_string(r.rank))].push_back(i);
  }
  return groups;
}

}  // namespace

void tenancy_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out, double busy_utilization_pct) {
  std::vector<int> unchecked;
  std::string unchecked_reason;
  for (const auto& [gpu, members] : ranks_by_gpu(ranks)) {
    const auto& first = ranks[members.front()];
    std::vector<int> ids;
    for (auto i : members) ids.push_back(ranks[i].rank);
    if (!first.tenancy.probed) {
      if (!first.tenancy.unavailable_reason.empty()) {
        unchecked.insert(unchecked.end(), ids.begin(), ids.end());
        if (unchecked_reason.empty()) unchecked_reason = first.tenancy.unavailable_reason;
      }
      continue;
    }
    std::vector<GpuProcess> computing, holding;
    for (auto i : members)
      for (const auto& p : foreign_processes(ranks, i)) {
        auto& list = p.compute ? computing : holding;
        if (std::none_of(list.begin(), list.end(), [&](const GpuProcess& q) { return q.pid == p.pid; })) list.push_back(p);
      }
    const auto busy = mean_utilization_pct(first.tenancy);
    const std::string who = gpu_text(first);
    if (!computing.empty()) {
      out.push_back(Check{check_ids::kGpuInUse, Severity::error, ids,
                          who + ": another process computes on it: " + describe(computing) +
                              ": stop it or give the job other GPUs (nvidia-smi --query-compute-apps=pid,"
                              "process_name,used_memory lists them); every figure would be shared with it",
                          results::env_gpu_block(check_ids::kGpuInUse, Severity::error)});
    } else if (busy && *busy >= busy_utilization_pct) {
      out.push_back(Check{check_ids::kGpuInUse, Severity::error, ids,
                          who + " was " + fixed(*busy, 0) + "% busy before any rank started work, though NVML " +
                              "lists no other compute process here (a container or MIG hides it): find it with " +
                              "nvidia-smi on the host and stop it, or give the job other GPUs",
                          results::env_gpu_block(check_ids::kGpuInUse, Severity::error)});
    } else if (!holding.empty()) {
      out.push_back(Check{check_ids::kGpuInUse, Severity::warning, ids,
                          who + ": another process holds memory on it without computing: " + describe(holding) +
                              ": stop it so the job has the whole GPU memory"});
    }
  }
  if (!unchecked.empty()) {
    std::sort(unchecked.begin(), unchecked.end());
    out.push_back(Check{check_ids::kGpuInUseUnchecked, Severity::info, unchecked,
                        "other processes on the GPUs were not listed (" + unchecked_reason + "): nothing to judge; " +
                            results::fix_text(check_ids::kGpuInUseUnchecked)});
  }
}

namespace {

// What ranks must agree on for one plugin kind: absent, or present with this size and hash.
std::string signature(const LibraryFile& f) {
  if (!f.found) return "missing";
  char text[48];
  std::snprintf(text, sizeof text, "%llu bytes, FNV-1a %016llx", static_cast<unsigned long long>(f.size_bytes),
                static_cast<unsigned long long>(f.fnv1a64));
  return text;
}

std::string upper(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

void nccl_plugin_checks(const std::vector<RankEnv>& ranks, std::vector<Check>& out) {
  for (const char* kind : {"net", "tuner", "profiler"}) {
    std::map<std::string, std::vector<const RankEnv*>> by_signature;
    std::map<std::string, const LibraryFile*> example;
    for (const auto& r : ranks)
      for (const auto& f : r.nccl_libraries)
        if (f.kind == kind && r.backend == "cuda") {  // the CPU backend never loads NCCL
          by_signature[signature(f)].push_back(&r);
          example.emplace(signature(f), &f);
        }
    if (by_signature.size() < 2) continue;
    std::vector<int> all;
    std::vector<std::string> parts;
    for (const auto& [sig, members] : by_signature) {
      std::vector<int> ids;
      std::set<std::string> hosts;
      for (const auto* r : members) {
        ids.push_back(r->rank);
        hosts.insert(r->host);
      }
      all.insert(all.end(), ids.begin(), ids.end());
      const auto* f = example[sig];
      std::string where = f->found ? f->path + " (" + sig + ")" : "not found";
      parts.push_back("ranks " + join_ints(ids) + " on " + join_words({hosts.begin(), hosts.end()}) + ": " + where);
    }
    std::sort(all.begin(), all.end());
    const auto* any = example.begin()->second;
    std::string text = std::string("NCCL's ") + kind + " plugin (" + any->requested + ") differs across ranks; ";
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
    out.push_back(Check{check_ids::kNcclPluginMismatch, Severity::error, all,
                        text + ": install the same plugin on every node (or none), or point NCCL_" + upper(kind) +
                            "_PLUGIN at one file every node has; a plugin on some nodes only can hang NCCL's init"});
  }
}

}  // namespace gpuscale::judge
